import HuddleRuntime

extension PostgresPool: ConnectionPoolGauges {
    public func gauges() async -> ConnectionPoolStatistics {
        let statistics = await loop.onLoop { self.statistics }
        return ConnectionPoolStatistics(
            open: statistics.open, busy: statistics.busy, waiting: statistics.waiting, statements: statistics.statements)
    }
}
