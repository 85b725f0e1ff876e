import GQLCore

print("benchmarks: not written yet")
