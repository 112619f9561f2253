import HuddleCore
import HuddlePostgres
import HuddleRuntime

extension HuddleServer {
    /// With standbys configured (issue 40): the monitor of what they have
    /// replayed, polling from the listener's loop, and the positions each
    /// user's reads must see, followed across processes; their metrics.
    /// What reads on standbys run on, stopped with the process.
    struct ReplicaParts: Sendable {
        let monitor: ReplicaMonitor
        let positions: WritePositions
        /// The connection the floor is read on.
        let pool: PostgresPool

        func stop() async {
            positions.stop()
            await pool.close()
            await monitor.stop()
        }
    }

    func startReplicaMonitoring(
        primary: PostgresConfiguration, listener: PostgresListener, listenerLoop: EventLoop, settings: Configuration
    ) async -> ReplicaParts? {
        guard !settings.replicas.isEmpty else { return nil }
        var one = primary
        one.maxConnections = 1
        one.applicationName = "huddle-write-positions"
        let pool = PostgresPool(one, on: listenerLoop)
        let positions = WritePositions(listener: listener) {
            await listenerLoop.onLoop {
                guard let rows = try? await pool.query("SELECT (\(WALPosition.insertPositionSQL))::text", []),
                    let text = try? rows.first?.decode(String.self, at: 0)
                else { return nil }
                return WALPosition(text)
            }
        }
        // A failover's new primary writes another timeline: what was known goes.
        let monitor = ReplicaMonitor(
            primary: primary, replicas: settings.replicas, settings: settings.replicaMonitoring, on: listenerLoop,
            onNewPrimary: { positions.forgetAll() })
        monitor.start()
        // Reads go to the primary until the floor is known; the server need not wait for it.
        Task(executorPreference: listenerLoop) {
            do {
                try await positions.start()
            } catch {
                settings.http.logger.log(
                    .error, "reads stay on the primary: cannot follow other processes' writes", ["error": .string("\(error)")])
            }
        }
        metrics.registerExposition { await Self.replicaMetrics(monitor, positions) }
        return ReplicaParts(monitor: monitor, positions: positions, pool: pool)
    }

    /// Each standby's state and lag, labelled by its host and database.
    static func replicaMetrics(_ monitor: ReplicaMonitor, _ positions: WritePositions) async -> String {
        let replicas = monitor.replicas
        let statements = await monitor.statementsRun()
        var text = "# HELP huddle_database_replica_up 1 while the standby answers as a standby, else 0.\n"
        text += "# TYPE huddle_database_replica_up gauge\n"
        for replica in replicas {
            text += "huddle_database_replica_up{replica=\"\(Metrics.escaped(replica.name))\"} \(replica.isUp ? 1 : 0)\n"
        }
        text += "# HELP huddle_database_replica_in_rotation 1 while queries may read from the standby (up, and within the lag allowed).\n"
        text += "# TYPE huddle_database_replica_in_rotation gauge\n"
        for replica in replicas {
            text += "huddle_database_replica_in_rotation{replica=\"\(Metrics.escaped(replica.name))\"} \(replica.inRotation ? 1 : 0)\n"
        }
        text += "# HELP huddle_database_replica_lag_seconds How far behind the primary the standby was at its last poll (NaN: unknown).\n"
        text += "# TYPE huddle_database_replica_lag_seconds gauge\n"
        for replica in replicas {
            let lag = replica.lag.map { "\(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)" } ?? "NaN"
            text += "huddle_database_replica_lag_seconds{replica=\"\(Metrics.escaped(replica.name))\"} \(lag)\n"
        }
        text += "# HELP huddle_database_replica_statements_total Statements the workers ran on the standby (the poll's not counted).\n"
        text += "# TYPE huddle_database_replica_statements_total counter\n"
        for (replica, count) in zip(replicas, statements) {
            text += "huddle_database_replica_statements_total{replica=\"\(Metrics.escaped(replica.name))\"} \(count)\n"
        }
        text += "# HELP huddle_write_positions Users whose last write this process keeps, for their reads on standbys.\n"
        text += "# TYPE huddle_write_positions gauge\nhuddle_write_positions \(positions.count)\n"
        text += "# HELP huddle_write_notices_total Writes told by NOTIFY (this process's own among them), for their users' reads.\n"
        text += "# TYPE huddle_write_notices_total counter\nhuddle_write_notices_total \(positions.noticesHeard)\n"
        return text
    }
}
