import GraphQL

/// What both transports (HTTP and WebSocket) apply to every operation they
/// run: the cache of parsed, validated documents, the limits, whether
/// introspection and suggestions are served, and where waiting work runs.
public struct GraphQLOperationSettings: Sendable {
    /// Parsed, validated documents kept by their text.
    public var documentCacheCapacity = 1_000
    /// The bytes of document text those may take together.
    public var documentCacheMaxTextBytes = 16 << 20
    /// Bounds on each operation: what it may ask for, measured before it
    /// runs, the size of its response, its time (and each subscription event's).
    public var executionLimits = ExecutionLimits.default
    /// Whether `__schema` and `__type` may be queried (`--no-introspection` turns it off).
    public var allowsIntrospection = true
    /// Whether error messages leave out "Did you mean" suggestions (`--no-suggestions`).
    public var hidesSuggestions = false
    /// Where waiting work runs, so that the time budget can abandon it:
    /// the server's event loop (nil: the global executor).
    public var workExecutor: (any TaskExecutor)?
    /// The manifest of trusted documents, when the server has one
    /// (`--trusted-documents`), and whether only those run.
    public var trustedDocuments: TrustedDocuments?
    /// Whether `@defer` and `@stream` deliver incrementally (multipart/mixed
    /// over HTTP, successive `next` messages over WebSocket); when off, they
    /// are not in the schema at all (`--no-incremental-delivery`).
    public var incrementalDelivery = true
    /// Where subscribers of one event that ask the same of it share one run
    /// of it (per viewer when the run read who asks); nil runs the event
    /// once per subscriber.
    public var sharedEvents: SharedEventExecutions? = SharedEventExecutions()

    public init() {}

    /// The document cache for `schema` these settings call for.
    func makeDocumentCache(for schema: GraphQLSchema) -> DocumentCache {
        DocumentCache(
            schema: schema, capacity: documentCacheCapacity, maxTextBytes: documentCacheMaxTextBytes,
            rules: NoSchemaIntrospectionRule.serverRules(allowingIntrospection: allowsIntrospection),
            hidesSuggestions: hidesSuggestions
        )
    }
}
