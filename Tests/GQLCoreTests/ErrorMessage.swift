/// The message of the error `body` throws, or nil when it returns.
func errorMessage<T>(_ body: () throws -> T) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return "\(error)"
    }
}
