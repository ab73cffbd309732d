import Foundation

/// The stored metadata BLOB and the credentials by AAGUID in the in-memory store.
extension MemoryTransaction {
    func latestMetadataBLOB() throws(StorageError) -> MetadataBLOBRecord? {
        state.metadataBLOB
    }

    func latestMetadataSerial() throws(StorageError) -> Int64? {
        state.metadataBLOB?.serial
    }

    func credentials(aaguid: [UInt8], afterCredentialID: [UInt8]?, limit: Int) throws(StorageError) -> [Credential] {
        let after = afterCredentialID ?? []
        let matching = state.credentials.values.filter {
            $0.aaguid == aaguid && after.lexicographicallyPrecedes($0.credentialID)
        }
        return Array(
            matching.sorted { $0.credentialID.lexicographicallyPrecedes($1.credentialID) }.prefix(max(0, limit)))
    }

    func storeMetadataBLOB(_ record: MetadataBLOBRecord) throws(StorageError) -> MetadataBLOBStoreOutcome {
        let outcome = MetadataBLOBStoreOutcome.deciding(record, over: state.metadataBLOB)
        if outcome == .stored { state.metadataBLOB = record }
        return outcome
    }
}
