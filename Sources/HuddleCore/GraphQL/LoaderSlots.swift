import Synchronization

/// The loaders of one operation, each made the first time it is asked for.
///
/// An operation uses a few of an app's loaders (the project page 8 of
/// Prolific's 17); making and freeing all of them for every operation was a
/// measurable share of a small request's time. Each slot holds one loader,
/// named by a case of `Slot`; the storage is one array, made with the set.
/// A loader's batch function must not hold the set (or the object that
/// owns it): the set holds the loader, and neither would be freed. A loader
/// whose batches prime others is given those when it is made.
package final class LoaderSlots<Slot: RawRepresentable & CaseIterable>: Sendable where Slot.RawValue == Int {
    private let made: Mutex<[(any AnyObject & Sendable)?]>

    package init() {
        made = Mutex([(any AnyObject & Sendable)?](repeating: nil, count: Slot.allCases.count))
    }

    /// The slot's loader, made by `make` if there is none yet. `make` runs
    /// outside the lock, so it may ask for other slots; of two callers that
    /// make the same slot at once, the first to store it wins.
    package func loader<Loader: AnyObject & Sendable>(_ slot: Slot, _ make: () -> Loader) -> Loader {
        if let loader = made.withLock({ $0[slot.rawValue] }) { return unsafeDowncast(loader, to: Loader.self) }
        let loader = make()
        return made.withLock { made in
            if let stored = made[slot.rawValue] { return unsafeDowncast(stored, to: Loader.self) }
            made[slot.rawValue] = loader
            return loader
        }
    }
}
