import CLibPQ
import TraceContext
import Tracing

extension PostgresConnection {
    /// `body`, one statement, in a client span by OpenTelemetry's database
    /// conventions when the task is traced: named by its operation
    /// (`SELECT`), with the statement's text as sent, its parameters'
    /// values never in it; on the loop.
    func spanning(_ sql: String, _ body: () async throws -> PostgresRows) async throws -> PostgresRows {
        guard let tracer = RecordedTrace.tracer else { return try await body() }
        let operation = Self.operationName(sql)
        return try await tracer.withSpan(operation, ofKind: .client) { span in
            if span.isRecording {
                var attributes = serverAttributes
                attributes.set("db.operation", value: .string(operation))
                attributes.set("db.operation.name", value: .string(operation))
                attributes.set("db.query.text", value: .string(sql))
                span.attributes = attributes
            }
            do {
                return try await body()
            } catch let error as PostgresError {
                if span.isRecording, let state = error.sqlState {
                    span.attributes.set("db.response.status_code", value: .string(state))
                    span.attributes.set("error.type", value: .string(state))
                }
                throw error
            }
        }
    }

    /// What a span says of the server: the conventions' system, database, host and port.
    var serverAttributes: SpanAttributes {
        var attributes: SpanAttributes = ["db.system": "postgresql", "db.system.name": "postgresql"]
        guard let connection = connectionHandle else { return attributes }
        if let name = PQdb(connection) { attributes.set("db.namespace", value: .string(String(cString: name))) }
        if let host = PQhost(connection) { attributes.set("server.address", value: .string(String(cString: host))) }
        if let port = PQport(connection), let number = Int64(String(cString: port)) {
            attributes.set("server.port", value: .int64(number))
        }
        return attributes
    }

    /// The statement's first keyword, upper-cased: `SELECT`, `INSERT`, `WITH`, `BEGIN`.
    static func operationName(_ sql: String) -> String {
        let keyword = sql.utf8.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D || $0 == 0x28 }.prefix {
            (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
        }
        return keyword.isEmpty ? "SQL" : String(decoding: keyword, as: UTF8.self).uppercased()
    }
}
