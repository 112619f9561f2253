import CLibUV

extension EventLoop {
    /// Calls `action` on the loop about every `interval` until the returned
    /// action is cancelled: for a timer that many connections keep alike (a
    /// keep-alive), which costs each of them an entry in one wheel of the
    /// loop's instead of a task and a libuv timer of its own. The first
    /// call comes between 15/16 of `interval` and `interval` from now, and
    /// actions started at different moments stay spread over the interval
    /// rather than all called in one turn. On a stopped loop the action is
    /// never called: a wheel would keep it running. On the loop only.
    public func repeating(every interval: Duration, _ action: @escaping @Sendable () -> Void) -> RepeatingAction {
        assertInLoopThread()
        if stopping.load(ordering: .acquiring) { return RepeatingAction(action) }
        let wheel: TimingWheel
        if let existing = timingWheels[interval] {
            wheel = existing
        } else {
            wheel = TimingWheel(loop: uv, interval: interval)
            timingWheels[interval] = wheel
        }
        let repeating = RepeatingAction(action)
        wheel.add(repeating)
        return repeating
    }
}

/// An action `EventLoop.repeating` calls until it is cancelled; used on the loop only.
public final class RepeatingAction: @unchecked Sendable {
    fileprivate var action: (@Sendable () -> Void)?

    fileprivate init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    /// No call after this one; the wheel lets go of it when its slot next comes round.
    public func cancel() {
        action = nil
    }
}

/// The actions of one interval on one loop, in `slotCount` slots that one
/// libuv timer visits in turn, one every `interval / slotCount`: an action
/// is called each time its slot comes round (a hashed timing wheel).
final class TimingWheel {
    static let slotCount = 16
    private let timer: UnsafeMutablePointer<uv_timer_t>
    private let tick: UInt64
    private var slots = [[RepeatingAction]](repeating: [], count: TimingWheel.slotCount)
    /// The slot the next tick visits.
    private var next = 0
    /// Actions in the slots, some perhaps cancelled: the timer runs while there are any.
    private var count = 0

    init(loop: UnsafeMutablePointer<uv_loop_t>, interval: Duration) {
        tick = UInt64(max(1, interval.milliseconds / Int64(Self.slotCount)))
        timer = .allocate(capacity: 1)
        uv_timer_init(loop, timer)
        timer.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    func add(_ action: RepeatingAction) {
        // The slot visited last in a turn of the wheel from now.
        slots[(next + Self.slotCount - 1) % Self.slotCount].append(action)
        count += 1
        if count == 1 {
            uv_timer_start(
                timer,
                { timer in
                    Unmanaged<TimingWheel>.fromOpaque(timer!.pointee.data).takeUnretainedValue().visitNextSlot()
                }, tick, tick)
        }
    }

    private func visitNextSlot() {
        let index = next
        next = (next + 1) % Self.slotCount
        let due = slots[index]
        slots[index] = []
        for repeating in due {
            guard let action = repeating.action else {
                count -= 1
                continue
            }
            // Back in its slot first: the action may cancel itself.
            slots[index].append(repeating)
            action()
        }
        if count == 0 { uv_timer_stop(timer) }
    }

    /// Lets libuv close the timer (the loop has stopped running).
    func close() {
        uv_close(UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            handle!.withMemoryRebound(to: uv_timer_t.self, capacity: 1) { $0.deallocate() }
        }
    }
}
