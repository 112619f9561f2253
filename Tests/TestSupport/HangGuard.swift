import Testing

extension Trait where Self == TimeLimitTrait {
    /// A bound for a test that hangs, never for one that is slow: on a busy
    /// 2-core machine every suite runs at once, and a test that takes a
    /// few seconds alone may wait minutes for a core. A pass must not
    /// depend on the machine's speed; a hang must still end the run.
    package static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
