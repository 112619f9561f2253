import HuddleRuntime
import Testing

@testable import HuddleTelemetry

/// OpenTelemetry's environment variables, as the specification defines
/// them for an OTLP exporter and the SDK
/// (opentelemetry-specification, "protocol/exporter.md" and
/// "configuration/sdk-environment-variables.md").
struct OTLPSettingsTests {
    @Test func withoutAnEndpointTracingIsOff() throws {
        #expect(try OTLPSettings.from(environment: [:]) == nil)
        #expect(try OTLPSettings.from(environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "true"]) == nil)
        #expect(
            try OTLPSettings.from(environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"]) == nil)
        // A list naming otlp among other SDKs' exporters is this one's.
        #expect(
            try OTLPSettings.from(environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "otlp, console"])
                != nil)
    }

    /// The general endpoint is a base the signal's path is added to; the
    /// traces' own is used as it is; the option is a base, and wins.
    @Test func endpointsAreJoinedAsTheSpecificationSays() throws {
        #expect(try OTLPSettings.from(environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"])?.endpoint == "http://c:4318/v1/traces")
        #expect(
            try OTLPSettings.from(environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/"])?.endpoint == "http://c:4318/v1/traces")
        #expect(
            try OTLPSettings.from(environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://t/custom",
            ])?.endpoint == "https://t/custom")
        #expect(
            try OTLPSettings.from(environment: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://t/custom"], endpoint: "http://o:4318")?
                .endpoint == "http://o:4318/v1/traces")
        #expect(throws: OTLPSettings.Failure.self) { try OTLPSettings.from(environment: [:], endpoint: "collector:4318") }
    }

    @Test func headersTimeoutsBatchesAndLimitsAreRead() throws {
        let settings = try #require(
            try OTLPSettings.from(environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
                "OTEL_EXPORTER_OTLP_HEADERS": "api-key=secret%20one,tenant=a",
                "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "API-KEY=traces",
                "OTEL_EXPORTER_OTLP_TIMEOUT": "2500", "OTEL_BSP_EXPORT_TIMEOUT": "7000", "OTEL_ATTRIBUTE_COUNT_LIMIT": "99",
                "OTEL_BSP_SCHEDULE_DELAY": "200", "OTEL_BSP_MAX_QUEUE_SIZE": "100", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "500",
                "OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT": "16", "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT": "64",
            ]))
        #expect(settings.headers.map { "\($0.name)=\($0.value)" } == ["tenant=a", "API-KEY=traces"])
        #expect(settings.timeout == .milliseconds(2500) && settings.scheduleDelay == .milliseconds(200))
        #expect(settings.exportTimeout == .milliseconds(7000))
        // A batch is never larger than the queue.
        #expect(settings.maxQueueSize == 100 && settings.maxBatchSize == 100)
        #expect(settings.limits.maxAttributes == 16 && settings.limits.maxAttributeLength == 64)
        let base = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
        for (name, value) in [
            ("OTEL_EXPORTER_OTLP_HEADERS", "no-equals-sign"), ("OTEL_EXPORTER_OTLP_TIMEOUT", "soon"), ("OTEL_BSP_MAX_QUEUE_SIZE", "0"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"), ("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip"), ("OTEL_TRACES_SAMPLER", "sometimes"),
            ("OTEL_TRACES_EXPORTER", "zipkin"),
        ] {
            #expect(throws: OTLPSettings.Failure.self, "\(name)") { try OTLPSettings.from(environment: base.merging([name: value]) { $1 }) }
        }
    }

    @Test func theSamplerAndTheResourceAreRead() throws {
        let settings = try #require(
            try OTLPSettings.from(environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_SAMPLER": "parentbased_traceidratio",
                "OTEL_TRACES_SAMPLER_ARG": "0.1", "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=prod,service.name=ignored",
                "OTEL_SERVICE_NAME": "huddle-eu",
            ]))
        #expect(settings.sampler == TraceSampler(ratio: 0.1))
        let resource = Dictionary(settings.resource.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(resource["service.name"] == .string("huddle-eu") && resource["deployment.environment"] == .string("prod"))
        #expect(resource["service.version"] == .string(HuddleVersion.version) && resource["telemetry.sdk.language"] == .string("swift"))
        if case .int(let pid)? = resource["process.pid"] { #expect(pid > 0) } else { Issue.record("process.pid is not a number") }
        #expect(settings.resource.filter { $0.key == "service.name" }.count == 1)
        // The option's ratio wins over the variables.
        let ratio = try OTLPSettings.from(
            environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_SAMPLER": "always_off"], sampleRatio: 0.5)
        #expect(ratio?.sampler == TraceSampler(ratio: 0.5))
        #expect(throws: OTLPSettings.Failure.self) {
            try OTLPSettings.from(environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"], sampleRatio: 2)
        }
    }

    @Test func theLogShowsTheEndpointWithoutCredentials() throws {
        let settings = try #require(try OTLPSettings.from(environment: [:], endpoint: "https://user:secret@collector.example:4318"))
        #expect(settings.endpointForLogs == "https://collector.example:4318/v1/traces")
        #expect(settings.endpoint.contains("secret"))
    }
}
