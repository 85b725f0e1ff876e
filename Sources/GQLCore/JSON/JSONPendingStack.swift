/// The parser's scratch stack for the elements (or members) of open containers. When a container
/// closes, its elements are moved into a new array of the exact size, with no reference counting.
struct JSONPendingStack<Element>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// Elements on the stack.
    private(set) var count = 0

    init() {
        capacity = 64
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Changes the top element in place; the stack must not be empty.
    mutating func updateTop(_ body: (inout Element) -> Void) {
        guard count > 0 else { return }
        body(&storage[count - 1])
    }

    /// Removes the elements from `start` up, and returns them in order.
    mutating func popAll(from start: Int) -> [Element] {
        let moving = count - start
        guard moving > 0 else { return [] }
        let source = storage + start
        let elements = [Element](unsafeUninitializedCapacity: moving) { buffer, initialized in
            guard let destination = buffer.baseAddress else { return }
            destination.moveInitialize(from: source, count: moving)
            initialized = moving
        }
        // Only what was moved leaves the stack (all of it, unless the allocation above failed).
        count -= elements.count
        return elements
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newStorage.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }
}
