// swift-tools-version: 6.0
// passkeyd — WebAuthn / passkey relying-party server. See docs/ and ../shared/DESIGN.md for the layout.
import Foundation
import PackageDescription

/// Swift settings shared by every Swift target: Swift 6 language mode (strict concurrency) is the
/// default for tools-version 6.0; these add the upcoming features we rely on.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

var targets: [Target] = [
    // MARK: C libraries (system-library targets: module map + shim header)
    .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CCBOR", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    // pkcs11.h only: the PKCS#11 module itself is loaded at run time with dlopen (audit.pkcs11.module).
    .systemLibrary(name: "CPKCS11", pkgConfig: "p11-kit-1", providers: [.apt(["libp11-kit-dev"])]),

    // MARK: the pure stack
    .target(name: "JSON", swiftSettings: strict),
    .target(name: "Crypto", dependencies: ["COpenSSL"], swiftSettings: strict),
    .target(name: "CBOR", dependencies: ["CCBOR"], swiftSettings: strict),
    .target(name: "WebAuthn", dependencies: ["Crypto", "CBOR", "JSON"], swiftSettings: strict),
    .target(name: "DeviceKeys", dependencies: ["Crypto", "CBOR", "JSON", "WebAuthn"], swiftSettings: strict),
    .target(name: "Tokens", dependencies: ["Crypto", "JSON"], swiftSettings: strict),
    .target(name: "Audit", dependencies: ["Crypto", "JSON"], swiftSettings: strict),
    // FIDO Metadata Service (MDS3) BLOBs verified offline, their entries and statuses: pure, over WebAuthn.
    .target(name: "Metadata", dependencies: ["Crypto", "JSON", "WebAuthn"], swiftSettings: strict),
    // The recorded-ceremony format, replay and its benchmark: a tool over WebAuthn, not part of it.
    .target(name: "Replay", dependencies: ["WebAuthn", "Crypto", "JSON"], swiftSettings: strict),

    // MARK: the effect stack
    .target(name: "Storage", dependencies: ["JSON"], swiftSettings: strict),
    .target(name: "StorageSQLite", dependencies: ["Storage", "CSQLite"], swiftSettings: strict),
    .target(name: "StoragePostgres", dependencies: ["Storage", "CLibPQ"], swiftSettings: strict),
    .target(name: "Addresses", swiftSettings: strict),
    .target(name: "HTTP", dependencies: ["CMicroHTTPD", "JSON", "Addresses"], swiftSettings: strict),
    .target(name: "PKCS11Signer", dependencies: ["Audit", "Crypto", "CPKCS11"], swiftSettings: strict),

    // The application: the configuration model (Configuration: the settings table, ServerConfiguration and its
    // parts, the loader; neither HTTP nor a storage driver), an HTTP-free core of flows (Service), the HTTP endpoints
    // over it (Endpoints), the command line (Commands), the files the binary serves (Assets), and the composition root
    // (the passkeyd executable), the only target that imports both HTTP and a storage driver (docs/architecture.md).
    .target(
        name: "Configuration",
        dependencies: ["JSON", "Crypto", "Storage", "Metadata", "WebAuthn", "Tokens"],
        swiftSettings: strict
    ),
    .target(
        name: "Service",
        dependencies: [
            "Configuration", "JSON", "Crypto", "WebAuthn", "DeviceKeys", "Tokens", "Audit", "Storage", "Replay",
            "PKCS11Signer", "Addresses", "Metadata",
        ],
        swiftSettings: strict
    ),
    .target(name: "Assets", swiftSettings: strict),
    .target(
        name: "Endpoints",
        dependencies: [
            "Service", "Configuration", "HTTP", "Assets", "JSON", "Crypto", "WebAuthn", "DeviceKeys", "Tokens", "Audit",
            "Storage",
            "Replay", "Addresses",
        ],
        swiftSettings: strict
    ),
    .target(
        name: "Commands",
        dependencies: [
            "Service", "Configuration", "JSON", "Crypto", "Tokens", "Audit", "Replay", "Storage", "StorageSQLite",
            "StoragePostgres", "PKCS11Signer", "SoftwareClient", "Metadata",
        ],
        swiftSettings: strict
    ),
    .executableTarget(
        name: "passkeyd",
        dependencies: [
            "Commands", "Endpoints", "Service", "Configuration", "HTTP", "Storage", "StorageSQLite", "StoragePostgres",
            "Audit",
            "PKCS11Signer", "JSON",
        ],
        swiftSettings: strict),
    // A native app's side of the API in software (a virtual authenticator, an HTTP/1.1 client, the sign-up and login
    // requests): the tests' authenticator, the load generator's clients and `passkeyd try`.
    .target(name: "SoftwareClient", dependencies: ["Crypto", "CBOR", "JSON", "WebAuthn"], swiftSettings: strict),
    .executableTarget(name: "passkeyd-loadgen", dependencies: ["SoftwareClient", "Crypto"], swiftSettings: strict),
    .target(
        name: "TestSupport",
        dependencies: [
            "Crypto", "CBOR", "JSON", "WebAuthn", "Metadata", "Replay", "Storage", "HTTP", "Addresses",
            "SoftwareClient",
        ],
        swiftSettings: strict
    ),

    // MARK: tests (one target per module)
    .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "CryptoTests", dependencies: ["Crypto", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "CBORTests", dependencies: ["CBOR", "TestSupport"], swiftSettings: strict),
    .testTarget(
        name: "WebAuthnTests", dependencies: ["WebAuthn", "Crypto", "CBOR", "JSON", "TestSupport", "SoftwareClient"],
        swiftSettings: strict),
    .testTarget(
        name: "MetadataTests", dependencies: ["Metadata", "WebAuthn", "Crypto", "JSON", "TestSupport"],
        exclude: ["Fixtures"], swiftSettings: strict),
    .testTarget(
        name: "ReplayTests", dependencies: ["Replay", "WebAuthn", "Crypto", "JSON", "TestSupport"],
        swiftSettings: strict),
    .testTarget(
        name: "DeviceKeysTests", dependencies: ["DeviceKeys", "JSON", "Crypto", "CBOR", "TestSupport"],
        swiftSettings: strict),
    .testTarget(name: "TokensTests", dependencies: ["Tokens", "JSON", "Crypto", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "AuditTests", dependencies: ["Audit", "Crypto", "TestSupport"], swiftSettings: strict),
    .testTarget(
        name: "PKCS11SignerTests", dependencies: ["PKCS11Signer", "Audit", "Crypto", "TestSupport"],
        swiftSettings: strict),
    .testTarget(name: "StorageTests", dependencies: ["Storage", "TestSupport"], swiftSettings: strict),
    .testTarget(
        name: "StorageSQLiteTests", dependencies: ["StorageSQLite", "Storage", "TestSupport"], swiftSettings: strict),
    .testTarget(
        name: "StoragePostgresTests", dependencies: ["StoragePostgres", "Storage", "TestSupport"], swiftSettings: strict
    ),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport", "Addresses"], swiftSettings: strict),
    .testTarget(
        name: "ServerTests",
        dependencies: [
            "passkeyd", "Service", "Configuration", "Endpoints", "Commands", "Assets", "HTTP", "Storage",
            "StorageSQLite",
            "StoragePostgres",
            "Replay", "PKCS11Signer", "TestSupport", "SoftwareClient", "Addresses", "Metadata",
        ],
        swiftSettings: strict),
    .testTarget(
        name: "LoadgenTests", dependencies: ["passkeyd-loadgen", "SoftwareClient", "TestSupport"], swiftSettings: strict
    ),
]

var products: [Product] = [
    .executable(name: "passkeyd", targets: ["passkeyd"]),
    .library(name: "PasskeydPure", targets: ["JSON", "Crypto", "CBOR", "WebAuthn", "DeviceKeys", "Tokens", "Audit"]),
]

let package = Package(
    name: "passkeyd",
    products: products,
    targets: targets
)

// MARK: libFuzzer targets — declared only when PASSKEYD_FUZZ is set, so ordinary builds never try to link
// libFuzzer. Build line in ../shared/NOTES.md ("libFuzzer with SwiftPM"); build each product on its own.
if ProcessInfo.processInfo.environment["PASSKEYD_FUZZ"] != nil {
    let fuzzTargets: [(name: String, dependency: String)] = [
        ("FuzzCBOR", "CBOR"),
        ("FuzzAuthenticatorData", "WebAuthn"),
        ("FuzzAttestationObject", "WebAuthn"),
    ]
    // The libFuzzer glue (driver declaration, input copy) the targets share.
    package.targets.append(.target(name: "FuzzDriver", swiftSettings: strict))
    for fuzz in fuzzTargets {
        package.targets.append(
            .executableTarget(
                name: fuzz.name, dependencies: [.target(name: fuzz.dependency), .target(name: "FuzzDriver")],
                swiftSettings: strict))
        package.products.append(.executable(name: fuzz.name, targets: [fuzz.name]))
    }
}
