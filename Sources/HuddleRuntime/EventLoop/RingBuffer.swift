/// A FIFO in a ring buffer: push and pop are O(1), where `Array.removeFirst`
/// would make a long queue (of jobs, of pipelined statements) quadratic.
package struct RingBuffer<Element> {
    private var storage: [Element?] = Array(repeating: nil, count: 16)
    private var head = 0
    package private(set) var count = 0

    package init() {}

    package var isEmpty: Bool { count == 0 }
    package var first: Element? { count > 0 ? storage[head] : nil }

    package mutating func push(_ element: Element) {
        if count == storage.count {
            var bigger = [Element?](repeating: nil, count: storage.count * 2)
            for index in 0..<count { bigger[index] = storage[(head + index) & (storage.count - 1)] }
            storage = bigger
            head = 0
        }
        storage[(head + count) & (storage.count - 1)] = element
        count += 1
    }

    @discardableResult
    package mutating func removeFirst() -> Element {
        popFirst()!
    }

    package mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) & (storage.count - 1)
        count -= 1
        return element
    }
}
