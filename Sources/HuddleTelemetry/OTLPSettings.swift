import Foundation
import HuddleRuntime
import TraceContext

/// Where and how spans are exported: OTLP over HTTP (protobuf), set by
/// `--otlp-endpoint` or OpenTelemetry's standard environment variables
/// (`OTEL_EXPORTER_OTLP_*`, `OTEL_TRACES_SAMPLER*`, `OTEL_BSP_*`,
/// `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_SPAN_*_LIMIT`).
public struct OTLPSettings: Sendable {
    /// The URL spans are POSTed to (`…/v1/traces`).
    public var endpoint: String
    public var headers: [(name: String, value: String)] = []
    /// How long one request to the collector may take, connecting included.
    public var timeout = Duration.seconds(10)
    /// How long a batch may take to go, its retries included.
    public var exportTimeout = Duration.seconds(30)
    /// Spans waiting for export; past it, new ones are dropped (and counted), never waited for.
    public var maxQueueSize = 2048
    /// Spans sent in one request.
    public var maxBatchSize = 512
    /// The longest a span waits for a batch to fill.
    public var scheduleDelay = Duration.seconds(5)
    /// The collector's certificate authority, and this client's
    /// certificate and key when the collector asks for one (PEM files).
    public var certificateAuthority: String?
    public var clientCertificate: String?
    public var clientKey: String?
    public var sampler = TraceSampler()
    public var limits = SpanLimits()
    /// The resource's attributes: `service.name` and the rest.
    public var resource: [(key: String, value: ResourceValue)] = []

    /// A resource attribute's value: text, or a number where the
    /// conventions ask for one (`process.pid`).
    public enum ResourceValue: Sendable, Equatable {
        case string(String)
        case int(Int)
    }

    /// The endpoint as the log shows it: without credentials a URL may carry.
    public var endpointForLogs: String {
        guard var parts = URLComponents(string: endpoint), parts.user != nil || parts.password != nil else { return endpoint }
        parts.user = nil
        parts.password = nil
        return parts.string ?? endpoint
    }

    public init(endpoint: String) {
        self.endpoint = endpoint
        resource = Self.defaultResource(serviceName: "huddle")
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The settings `environment` and the command's options give; nil when
    /// tracing is off: no endpoint, `OTEL_SDK_DISABLED=true` or
    /// `OTEL_TRACES_EXPORTER=none`. `endpoint` is a collector's base URL, as
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` is; `sampleRatio` stands for
    /// `parentbased_traceidratio` with that ratio.
    public static func from(
        environment: [String: String], endpoint: String? = nil, sampleRatio: Double? = nil
    ) throws(Failure) -> OTLPSettings? {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0.trimmingCharacters(in: .whitespaces) }
        }
        /// A traces-only variable, else the general one.
        func either(_ suffix: String) -> String? {
            value("OTEL_EXPORTER_OTLP_TRACES_\(suffix)") ?? value("OTEL_EXPORTER_OTLP_\(suffix)")
        }
        if value("OTEL_SDK_DISABLED")?.lowercased() == "true" { return nil }
        if let exporters = value("OTEL_TRACES_EXPORTER") {
            // A list; `console` and the rest are other SDKs' exporters, not this one's.
            let names = exporters.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if names == ["none"] { return nil }
            guard names.contains("otlp") else {
                throw Failure(description: "OTEL_TRACES_EXPORTER must name otlp (or be none), not \(exporters)")
            }
        }
        let url: String
        if let endpoint, !endpoint.isEmpty {
            url = tracesURL(base: endpoint)
        } else if let traces = value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") {
            url = traces
        } else if let base = value("OTEL_EXPORTER_OTLP_ENDPOINT") {
            url = tracesURL(base: base)
        } else {
            return nil
        }
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw Failure(description: "the OTLP endpoint must be an http or https URL, not \(url)")
        }
        var settings = OTLPSettings(endpoint: url)
        if let protocolName = either("PROTOCOL"), protocolName != "http/protobuf" {
            throw Failure(description: "OTLP over \(protocolName) is not supported; set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf")
        }
        if let compression = either("COMPRESSION"), compression != "none" {
            throw Failure(description: "OTLP compression \(compression) is not supported; set OTEL_EXPORTER_OTLP_COMPRESSION=none")
        }
        settings.headers = try pairs(value("OTEL_EXPORTER_OTLP_HEADERS"), "OTEL_EXPORTER_OTLP_HEADERS").map { ($0.key, $0.value) }
        for (name, headerValue) in try pairs(value("OTEL_EXPORTER_OTLP_TRACES_HEADERS"), "OTEL_EXPORTER_OTLP_TRACES_HEADERS") {
            settings.headers.removeAll { $0.name.lowercased() == name.lowercased() }
            settings.headers.append((name, headerValue))
        }
        if let timeout = either("TIMEOUT") {
            settings.timeout = .milliseconds(try wholeNumber(timeout, "OTEL_EXPORTER_OTLP_TIMEOUT", within: 1...600_000))
        }
        settings.certificateAuthority = either("CERTIFICATE")
        settings.clientCertificate = either("CLIENT_CERTIFICATE")
        settings.clientKey = either("CLIENT_KEY")
        if let time = value("OTEL_BSP_EXPORT_TIMEOUT") {
            settings.exportTimeout = .milliseconds(try wholeNumber(time, "OTEL_BSP_EXPORT_TIMEOUT", within: 1...600_000))
        }
        if let delay = value("OTEL_BSP_SCHEDULE_DELAY") {
            settings.scheduleDelay = .milliseconds(try wholeNumber(delay, "OTEL_BSP_SCHEDULE_DELAY", within: 1...600_000))
        }
        if let size = value("OTEL_BSP_MAX_QUEUE_SIZE") {
            settings.maxQueueSize = try wholeNumber(size, "OTEL_BSP_MAX_QUEUE_SIZE", within: 1...1_000_000)
        }
        if let size = value("OTEL_BSP_MAX_EXPORT_BATCH_SIZE") {
            settings.maxBatchSize = try wholeNumber(size, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", within: 1...100_000)
        }
        settings.maxBatchSize = min(settings.maxBatchSize, settings.maxQueueSize)
        // The general limits first, the spans' own after: those win.
        for (name, keyPath) in [
            ("OTEL_ATTRIBUTE_COUNT_LIMIT", \SpanLimits.maxAttributes), ("OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT", \SpanLimits.maxAttributes),
            ("OTEL_SPAN_EVENT_COUNT_LIMIT", \SpanLimits.maxEvents), ("OTEL_SPAN_LINK_COUNT_LIMIT", \SpanLimits.maxLinks),
            ("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT", \SpanLimits.maxAttributeLength),
            ("OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT", \SpanLimits.maxAttributeLength),
        ] {
            if let limit = value(name) { settings.limits[keyPath: keyPath] = try wholeNumber(limit, name, within: 0...1_000_000) }
        }
        if let sampleRatio {
            guard (0...1).contains(sampleRatio) else { throw Failure(description: "--trace-sample-ratio must be from 0 to 1") }
            settings.sampler = TraceSampler(ratio: sampleRatio)
        } else if let name = value("OTEL_TRACES_SAMPLER") {
            switch TraceSampler.named(name, argument: value("OTEL_TRACES_SAMPLER_ARG")) {
            case .success(let sampler): settings.sampler = sampler
            case .failure(let failure): throw Failure(description: failure.description)
            }
        }
        var resource = try pairs(value("OTEL_RESOURCE_ATTRIBUTES"), "OTEL_RESOURCE_ATTRIBUTES")
        let serviceName = value("OTEL_SERVICE_NAME") ?? resource.first { $0.key == "service.name" }?.value ?? "huddle"
        resource.removeAll { $0.key == "service.name" }
        settings.resource =
            defaultResource(serviceName: serviceName).filter { own in !resource.contains { $0.key == own.key } }
            + resource.map { ($0.key, .string($0.value)) }
        return settings
    }

    /// `base` with OTLP/HTTP's path for traces, as the specification joins them.
    static func tracesURL(base: String) -> String {
        base.hasSuffix("/") ? base + "v1/traces" : base + "/v1/traces"
    }

    /// The W3C Baggage-like lists the variables hold: `key=value,…`, each
    /// value percent-encoded.
    static func pairs(_ text: String?, _ name: String) throws(Failure) -> [(key: String, value: String)] {
        guard let text else { return [] }
        var pairs: [(key: String, value: String)] = []
        // Empty items (a trailing comma, `, ,`) are nothing to read.
        for item in text.split(separator: ",") where !item.trimmingCharacters(in: .whitespaces).isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let key = parts[0].trimmingCharacters(in: .whitespaces).removingPercentEncoding, !key.isEmpty,
                let decoded = parts[1].trimmingCharacters(in: .whitespaces).removingPercentEncoding,
                !key.contains(where: \.isNewline), !decoded.contains(where: \.isNewline)
            else { throw Failure(description: "\(name) must be key=value pairs separated by commas") }
            pairs.append((key, decoded))
        }
        return pairs
    }

    private static func wholeNumber(_ text: String, _ name: String, within range: ClosedRange<Int>) throws(Failure) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw Failure(description: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text)")
        }
        return number
    }

    /// What OpenTelemetry's resource conventions ask every process to say of itself.
    static func defaultResource(serviceName: String) -> [(key: String, value: ResourceValue)] {
        [
            ("service.name", .string(serviceName)),
            ("service.version", .string(HuddleVersion.version)),
            ("service.instance.id", .string(instanceID)),
            ("telemetry.sdk.name", .string("huddle")),
            ("telemetry.sdk.language", .string("swift")),
            ("telemetry.sdk.version", .string(HuddleVersion.version)),
            ("process.pid", .int(Int(ProcessInfo.processInfo.processIdentifier))),
            ("host.name", .string(ProcessInfo.processInfo.hostName)),
            ("vcs.ref.head.revision", .string(HuddleVersion.commit)),
        ]
    }

    /// This process's id among the service's instances, made once.
    private static let instanceID: String = UUID().uuidString.lowercased()
}
