// swift-tools-version: 6.0
// An app's own package using SeatKit's engine and client products, in Swift 6 language mode with
// complete concurrency checking: scripts/check-consumer.sh builds it with warnings as errors, so a
// public type whose Sendable or actor stance makes ordinary app code warn fails `make test`.
import PackageDescription

let package = Package(
    name: "SeatKitConsumer",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "SeatKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "SeatKitConsumer",
            dependencies: [
                .product(name: "SeatMap", package: "SeatKit"), .product(name: "CollectionLayout", package: "SeatKit"),
                .product(name: "SeatCanvas", package: "SeatKit"), .product(name: "SeatSync", package: "SeatKit"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
