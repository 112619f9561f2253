/// A set of names from a document (its variables, its fragments): compared
/// one by one while it holds a few, hashed once it holds more. Most
/// documents have a handful of each, and comparing a few short names costs
/// less than hashing one of them.
struct NameSet {
    private var few: [String] = []
    private var many: Set<String>? = nil
    /// How many names are compared one by one before a table is made, in
    /// this set and wherever validation looks a document's names up.
    static let scanLimit = 8

    init() {}

    init(_ names: some Sequence<String>) {
        for name in names { insert(name) }
    }

    func contains(_ name: String) -> Bool {
        if let many { return many.contains(name) }
        return few.contains(name)
    }

    /// Adds `name`; whether it was not there before.
    @discardableResult
    mutating func insert(_ name: String) -> Bool {
        if many != nil { return many!.insert(name).inserted }
        if few.contains(name) { return false }
        if few.count < Self.scanLimit {
            if few.isEmpty { few.reserveCapacity(Self.scanLimit) }
            few.append(name)
            return true
        }
        var set = Set(few)
        set.insert(name)
        many = set
        few = []
        return true
    }

    mutating func removeAll() {
        few.removeAll(keepingCapacity: true)
        many = nil
    }
}
