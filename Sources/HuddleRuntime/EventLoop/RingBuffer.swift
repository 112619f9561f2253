/// A FIFO in a ring buffer: push and pop are O(1), where `Array.removeFirst`
/// would make a long queue (of jobs, of pipelined statements) quadratic.
///
/// Inlinable: the PostgreSQL client keeps one per connection, in another
/// module, where an unspecialised copy looked up its element type's metadata
/// at every push and pop.
package struct RingBuffer<Element> {
    @usableFromInline var storage: [Element?] = Array(repeating: nil, count: 16)
    @usableFromInline var head = 0
    @usableFromInline var storedCount = 0

    @inlinable package init() {}

    @inlinable package var count: Int { storedCount }
    @inlinable package var isEmpty: Bool { storedCount == 0 }
    @inlinable package var first: Element? { storedCount > 0 ? storage[head] : nil }

    @inlinable
    package mutating func push(_ element: Element) {
        if storedCount == storage.count {
            var bigger = [Element?](repeating: nil, count: storage.count * 2)
            for index in 0..<storedCount { bigger[index] = storage[(head + index) & (storage.count - 1)] }
            storage = bigger
            head = 0
        }
        storage[(head + storedCount) & (storage.count - 1)] = element
        storedCount += 1
    }

    @discardableResult @inlinable
    package mutating func removeFirst() -> Element {
        popFirst()!
    }

    @inlinable
    package mutating func popFirst() -> Element? {
        guard storedCount > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) & (storage.count - 1)
        storedCount -= 1
        return element
    }
}
