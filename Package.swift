// swift-tools-version: 6.0
// SeatKit: seat maps, virtualized layout and a seat-inventory server.
// Module arrows (see ARCHITECTURE.md): SeatMap <- SeatKitCLI <- seatkit; SeatKitBench is outside the shipped products.
import PackageDescription

let package = Package(
    name: "SeatKit",
    platforms: [.macOS(.v15), .iOS(.v16)],
    products: [
        .library(name: "SeatJSON", targets: ["SeatJSON"]),
        .library(name: "SeatMap", targets: ["SeatMap"]),
        .library(name: "CollectionLayout", targets: ["CollectionLayout"]),
        .library(name: "SeatCanvas", targets: ["SeatCanvas"]),
        .library(name: "SeatWire", targets: ["SeatWire"]),
        .library(name: "SeatSync", targets: ["SeatSync"]),
        .library(name: "SeatKitUI", targets: ["SeatKitUI"]),
        .executable(name: "seatkit", targets: ["seatkit"]),
    ],
    // Fetched from GitHub like any package; a machine without internet access points SwiftPM at local
    // copies with ../shared/swiftpm/use-mirrors.sh (.ci/run does when that folder exists).
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    ],
    targets: [
        // JSON: a strict parser with line and column, a writer, RFC 3339 timestamps. Foundation only; a
        // leaf every layer may use (the HTTP module through it knows nothing of seats).
        .target(name: "SeatJSON"),
        // Engine: Foundation only, builds for iOS/macOS too.
        .target(name: "SeatMap", dependencies: ["SeatJSON"]),
        // Engine: headless virtualization (viewport, frozen grid, compositional layout, reuse, prefetch,
        // spatial index). Foundation only; knows nothing of seats.
        .target(name: "CollectionLayout"),
        // Engine: the seat map as a picture (geometry, hit testing, gutter, minimap, level of detail,
        // display list, SVG, heat map, accessibility). Foundation only.
        .target(name: "SeatCanvas", dependencies: ["SeatJSON", "SeatMap", "CollectionLayout"]),
        // The v1 API's wire types, shared by the server and the client. Foundation only.
        .target(name: "SeatWire", dependencies: ["SeatJSON", "SeatMap"]),
        // The client: API client and (next) the optimistic seat session. Foundation only.
        .target(name: "SeatSync", dependencies: ["SeatJSON", "SeatWire", "SeatMap", "SharedState"]),
        // Apple UI layer: thin UIKit and SwiftUI views over the engine. Every file is inside
        // `#if canImport(UIKit)` (SwiftUI files: `#if canImport(SwiftUI) && canImport(UIKit)`), so on Linux
        // this is an empty module; scripts/check-uikit.sh type-checks it against UIKit and SwiftUI stand-ins.
        .target(name: "SeatKitUI", dependencies: ["SeatMap", "CollectionLayout", "SeatCanvas", "SeatSync"]),
        // Server layer: C libraries through system-library targets (Debian -dev packages).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // libqrencode (Debian libqrencode-dev): a ticket's QR code, drawn by the server as SVG.
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // OpenSSL's libcrypto (Debian libssl-dev): SHA-256 for SeatSecrets on Linux (Apple platforms use
        // CryptoKit); C, for the digest context it keeps a thread.
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        // One lock type for state shared between threads (`Locked<Value>`). Foundation only.
        .target(name: "SharedState"),
        // Digests and secrets: SHA-256, hold-token digests, sealed idempotency answers, the admin key's rules.
        .target(name: "SeatSecrets", dependencies: [.target(name: "CCrypto", condition: .when(platforms: [.linux]))]),
        // The domain's words: what a show, a hold, a claim, a refund and a commit are, the store protocol
        // the domain needs (its port) and the errors it answers in. The stores adapt to these; the
        // inventory knows no database.
        .target(name: "SeatDomain", dependencies: ["SeatMap", "SeatSecrets", "SeatJSON"]),
        // Tickets: the code a ticket's QR carries (a seat of a show, signed with the show's Ed25519 key)
        // and the issuer that draws each show's key from one secret. Knows no store and no HTTP.
        .target(name: "SeatTickets", dependencies: ["SeatSecrets", "SharedState"]),
        // Payment providers, headless: the deployment's providers (`--payments FILE`) and each one's
        // signatures and calls. Knows no store, no seats and no HTTP server.
        .target(name: "SeatPayments", dependencies: ["SeatSecrets", "SeatJSON", "SharedState"]),
        // Webhooks out: Standard Webhooks signatures, the retry schedule, sealed secrets and the sender
        // (no store, no events: the server's dispatcher decides what to send).
        .target(name: "SeatWebhooks", dependencies: ["SeatSecrets", "SeatPayments"]),
        // The on-sale waiting room, headless: the line, the opening shuffle, the admission rate, signed admissions.
        .target(name: "SeatQueue", dependencies: ["SeatDomain", "SeatSecrets", "SharedState"]),
        // The two stores (SQLite, PostgreSQL) behind SeatDomain's protocol: the only module that speaks SQL.
        .target(
            name: "SeatStorage", dependencies: ["SeatDomain", "SeatJSON", "SeatMap", "SeatSecrets", "SharedState", "CSQLite", "CLibPQ"],
            // The schemas' SQL files, compiled into the binary (MigrationFiles).
            resources: [.embedInCode("Migrations")]),
        // HTTP/1.1 on libmicrohttpd: the server, strict framing, connection budgets, event streams,
        // deferred answers, gzip. Knows nothing of seats but the JSON writer its problems use.
        .target(name: "SeatHTTP", dependencies: ["SeatJSON", "SharedState", "CMicroHTTPD", "CZlib"]),
        // The domain: venues, shows, holds, group-committed changes, events, expiry. No HTTP: it refuses
        // with `Refusal`s and writes events to `EventSubscriber`s; the API maps both to the wire.
        .target(
            name: "SeatInventory",
            dependencies: [
                .product(name: "Logging", package: "swift-log"), "SeatJSON", "SeatMap", "SeatDomain", "SeatSecrets", "SharedState", "SeatTickets",
            ]),
        // The v1 API over the inventory (route table, problems, rate limits, metrics, the picker's reads,
        // the web page's files) and the app that runs it with its background threads.
        .target(
            name: "SeatServer",
            dependencies: [
                "SeatQueue",
                "SeatPayments",
                "SeatWebhooks",
                "SeatTickets",
                "SeatDomain",
                "SeatJSON",
                .product(name: "Logging", package: "swift-log"), "SeatMap", "SeatCanvas", "CollectionLayout", "SeatWire", "SeatHTTP", "SeatInventory",
                "SeatStorage", "SeatSecrets", "SharedState", "CQREncode", "CZlib",
            ],
            resources: [.copy("Web/Site")]),
        // The sample venues and the seeded generator: for the CLI, the tests and the benchmarks alike
        // (none of them imports another's code to get them).
        .target(name: "SeatSamples", dependencies: ["SeatMap"]),
        // Command implementations, a library so tests can drive them without spawning processes.
        .target(
            name: "SeatKitCLI",
            dependencies: [
                "SeatJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"), "SeatMap", "SeatSamples",
                "CollectionLayout", "SeatCanvas", "SeatServer", "SeatInventory", "SeatStorage", "SeatHTTP", "SeatSecrets", "SharedState", "SeatSync", "SeatWire",
                "LoopbackHTTP", "SeatPayments",
            ]),
        .executableTarget(name: "seatkit", dependencies: ["SeatKitCLI"]),
        // Benchmarks: each figure beside its naive baseline; not a product (nothing ships it): run with
        // `swift run -c release SeatKitBench` (make bench).
        .executableTarget(
            name: "SeatKitBench",
            dependencies: [
                "SeatDomain",
                "SeatJSON", "SeatMap", "SeatSamples", "CollectionLayout", "SeatCanvas", "CHeapStats", "LoopbackHTTP", "SeatServer", "SeatInventory",
                "SeatStorage", "SharedState", "SeatTickets", "SeatSecrets", "SeatPayments", "SeatServerTestSupport", "SeatHTTP", "SeatQueue",
            ]),
        // glibc's allocator statistics for the memory figures; benchmarks only.
        .target(name: "CHeapStats"),
        // A blocking loopback HTTP/1.1 client for the server tests and the load generator (Linux sockets).
        .target(name: "LoopbackHTTP"),
        // A real server on a loopback port with a temporary store, for the server and client tests.
        .target(
            name: "SeatServerTestSupport",
            dependencies: ["SeatDomain", "SeatJSON", "SeatServer", "SeatInventory", "SeatStorage", "SeatSamples", "SeatMap", "LoopbackHTTP", "SeatPayments"],
            path: "Sources/SeatServerTestSupport"),
        // Seeded randomness and text snapshots shared by the test targets.
        .target(name: "SeatKitTestSupport", dependencies: ["SeatSamples"], path: "Sources/SeatKitTestSupport"),
        // Fixtures/: real-shaped captures the importers must take (Fixtures/*/make-fixtures.py writes them).
        .testTarget(name: "SeatMapTests", dependencies: ["SeatJSON", "SeatMap", "SeatKitTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CollectionLayoutTests", dependencies: ["CollectionLayout", "SeatKitTestSupport"], exclude: ["Snapshots"]),
        .testTarget(
            name: "SeatCanvasTests", dependencies: ["SeatJSON", "SeatCanvas", "SeatMap", "CollectionLayout", "SeatSamples", "SeatKitTestSupport"],
            exclude: ["Snapshots"]),
        // Snapshot files live in Tests/SeatKitCLITests/Snapshots, found through #filePath (re-record: SEATKIT_RECORD=1).
        .testTarget(
            name: "SeatServerTests",
            dependencies: [
                "SeatDomain",
                "SeatJSON",
                "SeatServer", "SeatInventory", "SeatHTTP", "SeatStorage", "SeatSecrets", "SharedState", "SeatMap", "SeatSamples", "SeatCanvas",
                "SeatKitTestSupport", "LoopbackHTTP", "SeatTickets",
                "SeatServerTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            // The schema's golden dumps and stores made by a released main (MigrationTests).
            exclude: ["Snapshots", "Fixtures"]),
        // The inventory alone on a real SQLite store: refusals and subscribers without HTTP.
        .testTarget(name: "SeatQueueTests", dependencies: ["SeatQueue", "SeatSecrets", "SeatDomain", "SeatKitTestSupport"]),
        .testTarget(name: "SeatPaymentsTests", dependencies: ["SeatPayments", "SeatSecrets"]),
        .testTarget(name: "SeatTicketsTests", dependencies: ["SeatTickets", "SeatSecrets", "SeatKitTestSupport"]),
        .testTarget(
            name: "SeatInventoryTests",
            dependencies: [
                .product(name: "Logging", package: "swift-log"), "SeatDomain", "SeatJSON", "SeatInventory", "SeatStorage", "SeatSamples", "SeatMap",
                "SharedState", "SeatTickets",
            ]),
        .testTarget(
            name: "SeatSyncTests",
            dependencies: [
                "SeatSync", "SeatWire", "SeatServer", "SeatMap", "SeatSamples", "SeatKitTestSupport", "SeatServerTestSupport", "SeatPayments", "LoopbackHTTP",
            ]),
        // SeatKitUI on Linux: the guard on every file and the module's size (it links as an empty module).
        .testTarget(name: "SeatKitUITests", dependencies: ["SeatKitUI"]),
        .testTarget(
            name: "SeatKitCLITests",
            dependencies: [
                .product(name: "Logging", package: "swift-log"), "SharedState", "SeatKitCLI", "SeatMap", "SeatSamples", "SeatKitTestSupport",
                "SeatServerTestSupport", "LoopbackHTTP",
            ], exclude: ["Snapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
