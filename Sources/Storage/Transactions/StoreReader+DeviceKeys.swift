extension StoreReader {
    /// How many keys of `userID` are usable (active or locked, not revoked), leaving out those of device
    /// `deviceID`: what counts against a per-user key limit when that device enrols (it replaces its own keys).
    public func countActiveDeviceKeys(userID: String, excludingDeviceID deviceID: String) throws(StorageError) -> Int {
        try deviceKeys(userID: userID).count { $0.deviceID != deviceID && $0.status != .revoked }
    }
}
