// SwiftPM needs one source file in a C target; everything lives in include/CCurlShim.h.
#include "CCurlShim.h"
