/// The subscriptions of one queue (a server's event loop) waiting for the
/// same shared run of an event (issue 42): the first to find the run under
/// way waits for it in the process-wide registry (`SharedEventExecutions`);
/// the others of its queue join that one wait, with no lock and no lookup
/// there, and the outcome reaches them all in one pass on the queue. So
/// an event heard by thousands of subscriptions on a loop costs the
/// registry one wait per loop, not one per subscription.
///
/// Only waits on a run that any subscriber may share are gathered: a
/// subscription whose runs are its viewer's own claims alone, as before.
/// Confined to its queue, which is what makes it Sendable.
public final class SharedRunWaits: @unchecked Sendable {
    struct Key: Hashable {
        /// The registry the run is in: two on one queue are never mixed.
        let registry: ObjectIdentifier
        let occurrence: SharingKey
        let shape: SharedEventExecutions.Shape
    }

    /// One wait in the registry, and the subscriptions it stands for, each
    /// with its own copy of the event (the same occurrence). It holds them
    /// weakly, as a wait of their own did: a subscription its consumer
    /// drops stops. Confined to the queue, as its owner is.
    final class Wait: @unchecked Sendable {
        let key: Key
        fileprivate var members: [Member]

        fileprivate struct Member {
            weak var feed: SubscriptionFeed?
            let event: Parent
        }

        init(key: Key, feed: SubscriptionFeed, event: Parent) {
            self.key = key
            members = [Member(feed: feed, event: event)]
        }
    }

    /// The waits under way, by the run they wait for.
    private var waits: [Key: Wait] = [:]

    public init() {}

    /// The wait under way for `key`'s run, if a subscription of this queue has one.
    func wait(for key: Key) -> Wait? { waits[key] }

    /// `feed` waits for `wait`'s outcome too.
    func join(_ wait: Wait, _ feed: SubscriptionFeed, event: Parent) {
        wait.members.append(Wait.Member(feed: feed, event: event))
    }

    /// `wait` is the registry's wait for its run now: later subscriptions join it.
    func begin(_ wait: Wait) {
        waits[wait.key] = wait
    }

    /// The run `wait` stood for has ended: each member is given `outcome`
    /// (and goes on with its own next event, or runs its own if told to).
    func end(_ wait: Wait, _ outcome: SharedEventExecutions.Outcome) {
        if waits[wait.key] === wait { waits[wait.key] = nil }
        let members = wait.members
        wait.members = []
        for member in members { member.feed?.waited(outcome, for: member.event) }
    }

    /// How many waits are under way (for tests).
    var count: Int { waits.count }
}
