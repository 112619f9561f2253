import HuddleRuntime

extension PostgresPool: ConnectionPoolGauges {
    public func gauges() async -> ConnectionPoolStatistics {
        let (statistics, acquireWait, statementDuration) = await loop.onLoop {
            (self.statistics, self.acquireWait, self.statementDuration)
        }
        return ConnectionPoolStatistics(
            open: statistics.open, busy: statistics.busy, waiting: statistics.waiting, statements: statistics.statements,
            acquireWait: acquireWait, statementDuration: statementDuration)
    }
}
