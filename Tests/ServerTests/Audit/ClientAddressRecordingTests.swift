import Foundation
import Storage
import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("audit.client_address: what the log keeps of the client's address")
struct ClientAddressRecordingTests {
    @Test(
        "network keeps IPv4 /24 and IPv6 /48 (mapped IPv4 as IPv4), nothing of an unknown form",
        arguments: [
            ("192.0.2.77", "192.0.2.0/24"), ("10.1.255.254", "10.1.255.0/24"), ("0.0.0.1", "0.0.0.0/24"),
            ("2001:db8:abcd:12:1:2:3:4", "2001:db8:abcd::/48"), ("::1", "::/48"),
            ("::ffff:198.51.100.23", "198.51.100.0/24"), ("fe80::1%eth0", nil), ("unix", nil), ("", nil),
            ("192.0.2.1/32", nil), ("999.0.0.1", nil),
        ] as [(String, String?)])
    func network(address: String, expected: String?) {
        #expect(ClientAddressRecording.network.recorded(address) == expected)
    }

    @Test("full keeps the address, none keeps nothing, and no address stays none")
    func others() {
        #expect(ClientAddressRecording.full.recorded("192.0.2.77") == "192.0.2.77")
        #expect(ClientAddressRecording.none.recorded("192.0.2.77") == nil)
        for recording in ClientAddressRecording.allCases { #expect(recording.recorded(nil) == nil) }
    }

    @Test("the sequencer writes entries as the setting says; the events table keeps the whole address")
    func entries() async throws {
        for (setting, expected) in [
            ("full", #""client_address":"192.0.2.7""#), ("network", #""client_address":"192.0.2.0/24""#), ("none", nil),
        ] {
            let configuration = try TestConfiguration.make(["PASSKEYD_AUDIT_CLIENT_ADDRESS": setting])
            let context = ServerContext(
                configuration: configuration, store: MemoryStore(), logger: Logger(sink: { _ in }))
            try await AuditLogTests.record(8, in: context)
            _ = try await AuditSequencer.drain(store: context.store, addresses: configuration.audit.clientAddress)
            let leaves = try await context.store.read { try $0.auditLeaves(start: 0, end: 100) }
            let entry = String(decoding: leaves[7].entry, as: UTF8.self)
            if let expected {
                #expect(entry.contains(expected), "\(entry)")
            } else {
                #expect(!entry.contains("client_address"), "\(entry)")
            }
            let events = try await context.store.read { try $0.securityEvents(after: 0, limit: 100) }
            #expect(events[7].clientAddress == "192.0.2.7")
        }
        #expect(throws: ConfigurationError.self) {
            try TestConfiguration.make(["PASSKEYD_AUDIT_CLIENT_ADDRESS": "hash"])
        }
        #expect(try TestConfiguration.make().audit.clientAddress == .full)
    }
}
