/// A read-only table from names to values, built once from a schema's names
/// and looked up with any string: types, directives, fields and input fields
/// by name, which validation and execution look up at nearly every node.
///
/// Swift's `Dictionary` hashes with a seeded SipHash so that nobody can
/// choose keys that collide. Here the keys are a schema's names: a lookup
/// with any other name only walks the run of slots those fill, which the
/// table (never more than half full) keeps short, so a multiplicative hash
/// of the name's bytes serves at a fraction of SipHash's cost. The hash is
/// seeded for each process all the same: a schema read from elsewhere
/// (`buildClientSchema` over a remote endpoint's introspection) has keys
/// someone else chose, and they cannot know the seed to make them collide.
///
/// Names are compared byte for byte, as graphql-js compares them, not by
/// Swift's `==`, which calls canonically equivalent strings equal; the first
/// value given for a name is the one kept.
struct NameTable<Value: Sendable>: Sendable {
    private var names: [String] = []
    private var values: [Value] = []
    /// Open addressing, linear probing: each slot holds an index into
    /// `names` plus one, or zero when empty. Never more than half full.
    private var slots: [Int32]
    private var mask: Int

    init() {
        slots = [0]
        mask = 0
    }

    init(_ pairs: some Sequence<(String, Value)>) {
        self.init()
        for (name, value) in pairs { insertIfAbsent(name, value) }
    }

    var count: Int { names.count }

    subscript(name: String) -> Value? {
        var slot = Self.hash(name) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if haveSameUTF8(names[entry - 1], name) { return values[entry - 1] }
            slot = (slot + 1) & mask
        }
    }

    private mutating func insertIfAbsent(_ name: String, _ value: Value) {
        if (names.count + 1) * 2 > slots.count { grow() }
        var slot = Self.hash(name) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { break }
            if haveSameUTF8(names[entry - 1], name) { return }
            slot = (slot + 1) & mask
        }
        names.append(name)
        values.append(value)
        slots[slot] = Int32(names.count)
    }

    private mutating func grow() {
        let capacity = max(8, slots.count * 2)
        slots = Array(repeating: 0, count: capacity)
        mask = capacity - 1
        for (index, name) in names.enumerated() {
            var slot = Self.hash(name) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }

    /// The name's UTF-8 bytes, eight at a time, each word mixed in by a
    /// multiply (the 64-bit golden ratio) and the high half folded down,
    /// from a state seeded once a process.
    static func hash(_ name: String) -> Int {
        if let hash = name.utf8.withContiguousStorageIfAvailable(hash(bytes:)) { return hash }
        var contiguous = name
        return contiguous.withUTF8(hash(bytes:))
    }

    private static func hash(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var state: UInt64 = nameTableSeed ^ UInt64(bytes.count)
        var offset = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while offset + 8 <= bytes.count {
                state = mix(state, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                offset += 8
            }
            if offset < bytes.count {
                var tail: UInt64 = 0
                var shift: UInt64 = 0
                while offset < bytes.count {
                    tail |= UInt64(bytes[offset]) << shift
                    shift += 8
                    offset += 1
                }
                state = mix(state, tail)
            }
        }
        state ^= state >> 29
        state &*= 0xBF58_476D_1CE4_E5B9
        state ^= state >> 32
        return Int(truncatingIfNeeded: state)
    }

    @inline(__always)
    private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let product = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        return product ^ (product >> 32)
    }
}

/// `NameTable`'s hash seed (a generic type cannot hold a stored static).
private let nameTableSeed = UInt64.random(in: .min ... .max)

/// Whether two names have the same UTF-8 bytes.
@inline(__always)
func haveSameUTF8(_ first: String, _ second: String) -> Bool {
    // The same representation (a small string's inline bytes, or one
    // buffer) holds the same bytes: the usual hit, told without a read.
    if MemoryLayout<String>.size == 16,
        unsafeBitCast(first, to: (UInt64, UInt64).self) == unsafeBitCast(second, to: (UInt64, UInt64).self)
    {
        return true
    }
    let same = first.utf8.withContiguousStorageIfAvailable { firstBytes in
        second.utf8.withContiguousStorageIfAvailable { secondBytes in
            firstBytes.count == secondBytes.count && firstBytes.elementsEqual(secondBytes)
        }
    }
    return (same ?? nil) ?? first.utf8.elementsEqual(second.utf8)
}
