import CCurlShim
import XCTest

@testable import GQLCore

/// The dlopen loader and the variadic trampolines, against the system libcurl.
final class LibCurlTests: XCTestCase {
    func testLoadsOnceAndReportsItsVersion() throws {
        let first = try LibCurl.load()
        let second = try LibCurl.load()
        XCTAssertEqual(first.libraryName, second.libraryName)
        XCTAssertTrue(LibCurl.candidates.contains(first.libraryName))
        XCTAssertTrue(first.version.hasPrefix("libcurl/"), first.version)
    }

    func testTrampolinesSetAndReadOptions() throws {
        let curl = try LibCurl.load()
        let handle = try XCTUnwrap(curl.easyInit())
        defer { curl.easyCleanup(handle) }
        XCTAssertEqual(curl.setopt(handle, CURLOPT_URL, "http://127.0.0.1:1/x"), CURLE_OK)
        XCTAssertEqual(curl.setopt(handle, CURLOPT_TIMEOUT_MS, 1500), CURLE_OK)
        XCTAssertEqual(curl.setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, offset: 3), CURLE_OK)
        XCTAssertEqual(curl.setopt(handle, CURLOPT_HTTPHEADER, pointer: nil), CURLE_OK)
        // A string option is read back through getinfo (CURLINFO_EFFECTIVE_URL is the URL until a transfer runs).
        XCTAssertEqual(curl.getinfoString(handle, CURLINFO_EFFECTIVE_URL), "http://127.0.0.1:1/x")
        XCTAssertEqual(curl.getinfoLong(handle, CURLINFO_RESPONSE_CODE), 0)
        XCTAssertNil(curl.getinfoSocket(handle, CURLINFO_ACTIVESOCKET))
        // An option of the wrong number is refused, not misread.
        XCTAssertEqual(curl.setopt(handle, 9_999, 1), CURLE_UNKNOWN_OPTION)
    }

    func testRefusedConnectionIsReportedWithLibcurlsMessage() throws {
        let curl = try LibCurl.load()
        let handle = try XCTUnwrap(curl.easyInit())
        defer { curl.easyCleanup(handle) }
        curl.setopt(handle, CURLOPT_URL, "http://127.0.0.1:1/")
        curl.setopt(handle, CURLOPT_NOSIGNAL, 1)
        curl.setopt(handle, CURLOPT_PROXY, "")
        let code = curl.easyPerform(handle)
        XCTAssertEqual(code, CURLE_COULDNT_CONNECT)
        XCTAssertEqual(curl.strerror(code), "Couldn't connect to server")
    }

    func testSlistHoldsTheLinesInOrder() throws {
        let curl = try LibCurl.load()
        let list = try XCTUnwrap(curl.makeList(["A: 1", "B: 2"]))
        defer { curl.slistFreeAll(list) }
        XCTAssertEqual(list.pointee.data.map { String(cString: $0) }, "A: 1")
        XCTAssertEqual(list.pointee.next?.pointee.data.map { String(cString: $0) }, "B: 2")
        XCTAssertNil(curl.makeList([]))
    }
}
