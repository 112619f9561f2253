// swift-tools-version: 6.1
import PackageDescription

// The layers, bottom to top; each module imports only the ones below it.
//   1. C shims:   CLibUV, CLibPQ, COpenSSL (system libraries via pkg-config);
//      Formats: JSON string text, decimal text, the Gregorian calendar (no
//      dependencies; what the engine, the runtime and the apps share);
//      TraceContext: W3C Trace Context in Swift's tracing API's context
//   2. GraphQL:   the engine, pure Swift, no I/O
//   3. The runtime: HuddleRuntime (event loop, HTTP, WebSocket; no GraphQL),
//      HuddlePostgres (the PostgreSQL client), GraphQLTransport (GraphQL
//      over HTTP and over WebSocket, on the engine and HuddleRuntime),
//      HuddlePlayground (the in-browser IDE and its language service)
//   4. The apps: HuddleCore, what they share (accounts, friends, Relay
//      connections and Node, loaders, the inbox and subscriptions, auth);
//      then one target per app (Playmate, ...), each an `App` that the
//      executable mounts with one line (Sources/huddle/MountedApps.swift)
//   5. HuddleServer: the server, composed: the routes (the Playground,
//      GraphQL over HTTP, health and metrics) and the apps it is given, one
//      loop per worker, the process's listener, token cache and scheduler
//   6. huddle:    the command-line executable: it mounts the apps, finds
//      the database (or starts a private one), migrates it and serves
let package = Package(
    name: "Huddle",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "huddle", targets: ["huddle"]),
        .executable(name: "huddle-bench", targets: ["huddle-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Swift's tracing API: where spans open, in any module; the tracer
        // and its exporter are Huddle's own (HuddleRuntime, HuddleTelemetry).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibUV",
            path: "Sources/CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // libvips (libvips-dev) decodes, resizes and encodes pictures,
        // streaming and fast. A C target of fixed-argument wrappers, since
        // SwiftPM refuses the -pthread that GLib's pkg-config file adds.
        .target(
            name: "CVips",
            cSettings: [
                .unsafeFlags([
                    "-I/usr/include/glib-2.0", "-I/usr/lib/x86_64-linux-gnu/glib-2.0/include",
                    "-I/usr/lib/aarch64-linux-gnu/glib-2.0/include",
                ])
            ],
            linkerSettings: [.linkedLibrary("vips"), .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0")]
        ),
        // libcurl speaks SMTP (STARTTLS, SMTPS, AUTH) for outbound mail, and
        // HTTP/2 for push.
        .systemLibrary(
            name: "CLibCurl",
            path: "Sources/CLibCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(
            name: "Formats",
        ),
        // W3C Trace Context: the ids and flags a trace carries, kept in
        // Swift's tracing API's context, for every module that opens spans.
        .target(name: "TraceContext", dependencies: [.product(name: "Tracing", package: "swift-distributed-tracing")]),
        .target(
            name: "GraphQL",
            dependencies: ["Formats", "TraceContext", .product(name: "Tracing", package: "swift-distributed-tracing")],
            // The engine's classes are only mutated while a schema is built or
            // within one validation or execution, which owns them, so the
            // run-time exclusivity checks go (the static ones stay), and
            // aggressive cross-module optimisation lets the server's modules
            // inline the engine's small entry points. Both are unsafe flags,
            // which is why the engine is not offered as a library product
            // (docs/performance.md, "Measured choices").
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release))]
        ),
        .target(
            name: "HuddleRuntime",
            dependencies: [
                "CLibUV", "COpenSSL", "Formats", "TraceContext", .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            plugins: ["StampBuild"]
        ),
        .target(
            name: "HuddlePostgres",
            dependencies: [
                "CLibPQ", "CLibUV", "HuddleRuntime", "Formats", "TraceContext",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "GraphQLTransport",
            dependencies: [
                "GraphQL", "HuddleRuntime", "Formats", "TraceContext", .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // Email: MIME messages, and the transports that carry them (SMTP, a folder).
        .target(
            name: "HuddleMail",
            dependencies: ["CLibCurl"]
        ),
        // Pictures: checked, and remade in the apps' sizes by libvips.
        .target(name: "HuddleMedia", dependencies: ["CVips"]),
        // Push notifications (Web Push, APNs, FCM) and webhooks, over an
        // HTTP client that is libcurl's multi interface on the event loop.
        .target(
            name: "HuddlePush",
            dependencies: [
                "CLibCurl", "CLibUV", "HuddleRuntime", "GraphQL", "Formats",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // Traces out: spans exported over OTLP/HTTP (protobuf) by libcurl,
        // in batches, from a thread of their own.
        .target(
            name: "HuddleTelemetry",
            dependencies: ["CLibCurl", "HuddleRuntime", "TraceContext", .product(name: "Tracing", package: "swift-distributed-tracing")]
        ),
        .target(
            name: "HuddleCore",
            dependencies: [
                "HuddleRuntime", "HuddlePostgres", "HuddleMail", "HuddlePush", "HuddleMedia", "GraphQLTransport", "GraphQL", "Formats",
                "TraceContext", .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            plugins: ["EmbedFiles"]
        ),
        // The Playground: the IDE's files (Playground/, built in) and its
        // language service on the engine, served over the runtime's HTTP.
        .target(
            name: "HuddlePlayground",
            dependencies: ["GraphQL", "HuddleRuntime"],
            plugins: ["EmbedFiles"]
        ),
        // Each app's folder of Schema/ (its SDL and migrations) built into
        // its target, Schema/shared/ into HuddleCore and Playground/ into
        // HuddlePlayground, so the binary carries its contract and its IDE
        // and the core carries no app's files: the tool writes the Swift,
        // the plugin runs it.
        .executableTarget(name: "embed-files"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["embed-files"]),
        // The commit built from, read from .git, into HuddleRuntime's `BuildStamp`.
        .executableTarget(name: "stamp-build"),
        .plugin(name: "StampBuild", capability: .buildTool(), dependencies: ["stamp-build"]),
        .target(
            name: "Playmate",
            dependencies: ["HuddleCore", "HuddleRuntime", "HuddlePostgres", "GraphQL"],
            plugins: ["EmbedFiles"]
        ),
        .target(
            name: "Prolific",
            dependencies: ["HuddleCore", "HuddleRuntime", "HuddlePostgres", "GraphQL"],
            plugins: ["EmbedFiles"]
        ),
        .target(
            name: "PetMatch",
            dependencies: ["HuddleCore", "HuddleRuntime", "HuddlePostgres", "GraphQL"],
            plugins: ["EmbedFiles"]
        ),
        .target(
            name: "HabitBuddies",
            dependencies: ["HuddleCore", "HuddleRuntime", "HuddlePostgres", "GraphQL"],
            plugins: ["EmbedFiles"]
        ),
        // The server: the mounted apps' schema over HTTP, WebSocket and SSE
        // on one loop per worker, with the routes beside GraphQL (the
        // Playground, health and metrics), that the command and the tests start.
        .target(
            name: "HuddleServer",
            dependencies: [
                "HuddleCore", "HuddleMail", "HuddlePush", "HuddleMedia", "HuddlePlayground", "HuddleRuntime", "HuddlePostgres",
                "HuddleTelemetry", "GraphQLTransport", "GraphQL",
            ]
        ),
        .executableTarget(
            name: "huddle",
            dependencies: [
                "HuddleServer",
                "HuddleCore",
                "HuddleTelemetry",
                "HuddleMail",
                "HuddlePush",
                "HuddlePlayground",
                "Playmate",
                "Prolific",
                "PetMatch",
                "HabitBuddies",
                "HuddleRuntime",
                "HuddlePostgres",
                "GraphQLTransport",
                "GraphQL",
                "Formats",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The benchmarks' driver, which scripts/bench runs beside its baselines.
        .executableTarget(
            name: "huddle-bench",
            dependencies: [
                "GraphQL",
                // The loop's deadline timers (EventLoop: DeadlineScheduling), as the server has them.
                "GraphQLTransport",
                "HuddleRuntime",
                "HuddlePostgres",
                "HuddleTelemetry",
                "TraceContext",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "GraphQLTests",
            dependencies: [
                "GraphQL", "Formats", "TestSupport", "TraceContext", .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // What the tests share, in layers as the modules are: sockets,
        // child processes and the built binary; a running loop and HTTP
        // server; the test database; the whole server in-process.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(name: "RuntimeTestSupport", dependencies: ["HuddleRuntime", "TestSupport"], path: "Tests/RuntimeTestSupport"),
        .target(
            name: "PostgresTestSupport", dependencies: ["HuddlePostgres", "HuddleRuntime", "RuntimeTestSupport", "TestSupport"],
            path: "Tests/PostgresTestSupport"),
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "HuddleServer", "HuddleCore", "HuddleMail", "HuddlePush", "HuddlePlayground", "HuddlePostgres", "HuddleRuntime", "GraphQL",
                "PostgresTestSupport", "RuntimeTestSupport", "TestSupport",
            ],
            path: "Tests/ServerTestSupport"),
        .testTarget(
            name: "HuddleRuntimeTests", dependencies: ["HuddleRuntime", "GraphQL", "TraceContext", "RuntimeTestSupport", "TestSupport"]),
        .testTarget(name: "HuddlePushTests", dependencies: ["HuddlePush", "HuddleRuntime"]),
        .testTarget(
            name: "HuddleTelemetryTests",
            dependencies: [
                "HuddleTelemetry", "HuddleRuntime", "TraceContext", "TestSupport",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .testTarget(name: "HuddleMediaTests", dependencies: ["HuddleMedia", "TestSupport"]),
        .testTarget(
            name: "HuddlePostgresTests",
            dependencies: ["HuddlePostgres", "HuddleRuntime", "CLibPQ", "PostgresTestSupport", "RuntimeTestSupport", "TestSupport"]),
        .testTarget(name: "HuddleMailTests", dependencies: ["HuddleMail", "TestSupport"]),
        .testTarget(
            name: "GraphQLTransportTests",
            dependencies: ["GraphQLTransport", "GraphQL", "HuddleRuntime", "RuntimeTestSupport", "TestSupport"]
        ),
        .testTarget(
            name: "HuddleCoreTests",
            dependencies: [
                "HuddleCore", "HuddleMail", "HuddlePush", "HuddleServer", "HuddlePostgres", "HuddleRuntime", "GraphQL", "Formats",
                "PostgresTestSupport", "RuntimeTestSupport", "ServerTestSupport", "TestSupport", "HuddleMedia",
            ]),
        .testTarget(
            name: "HuddleServerTests",
            dependencies: [
                "HuddleServer", "HuddleCore", "HuddlePlayground", "HuddlePostgres", "HuddleRuntime", "GraphQLTransport", "GraphQL",
                "Playmate", "Prolific", "PetMatch", "HabitBuddies", "PostgresTestSupport", "RuntimeTestSupport", "ServerTestSupport",
                "TestSupport", "HuddlePush", "HuddleMedia", "HuddleTelemetry", "TraceContext",
            ],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "PlaymateTests",
            dependencies: [
                "Playmate", "HuddleCore", "HuddlePostgres", "HuddleRuntime", "GraphQL", "PostgresTestSupport", "RuntimeTestSupport",
                "ServerTestSupport", "TestSupport",
            ]),
        .testTarget(
            name: "ProlificTests",
            dependencies: [
                "Prolific", "HuddleCore", "HuddlePostgres", "HuddleRuntime", "GraphQL", "PostgresTestSupport", "RuntimeTestSupport",
                "ServerTestSupport", "TestSupport",
            ]),
        .testTarget(
            name: "PetMatchTests",
            dependencies: [
                "PetMatch", "HuddleCore", "HuddlePostgres", "HuddleRuntime", "GraphQL", "PostgresTestSupport", "RuntimeTestSupport",
                "ServerTestSupport", "TestSupport",
            ]),
        .testTarget(
            name: "HabitBuddiesTests",
            dependencies: [
                "HabitBuddies", "HuddleCore", "HuddlePostgres", "HuddleRuntime", "GraphQL", "PostgresTestSupport", "RuntimeTestSupport",
                "ServerTestSupport", "TestSupport",
            ]),
        // The `huddle` binary as users run it; it depends on the executable
        // so that building the tests builds it.
        .testTarget(
            name: "CommandTests",
            dependencies: [
                "huddle", "HuddleServer", "HuddleCore", "HuddlePostgres", "HuddleRuntime", "GraphQL", "PostgresTestSupport",
                "RuntimeTestSupport", "ServerTestSupport", "TestSupport",
            ],
            resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)

// An async function runs where its caller does unless it says otherwise
// (SE-0461). Huddle has no actors: a request's work runs on its loop's
// executor, and a call that hops to the generic executor only to find it
// may stay costs the runtime a look at the task's executor preference, a
// lock, for every async call on a request's path.
for target in package.targets where ![.system, .plugin, .binary].contains(target.type) && target.name != "CVips" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
}
