/// The device-key writes defined over the key rows: enrolment (one usable key per user and device) and the unlock
/// of a passkey login.
extension StoreWriter {
    /// Stores a new active device key and revokes (at `key.createdAt`) every active or locked key of the same
    /// user and device id: re-enrolment after a biometry change. Returns the ids of the keys it revoked, sorted.
    /// - Throws: `.conflict(.deviceKeyID)`; nothing is written then.
    public func insertDeviceKey(_ key: DeviceKey) throws(StorageError) -> [String] {
        guard try insert(.deviceKey(key)) else { throw .conflict(.deviceKeyID) }
        var revoked: [String] = []
        for old in try deviceKeys(userID: key.userID)
        where old.deviceID == key.deviceID && old.keyID != key.keyID && old.status != .revoked {
            var state = old.state
            state.status = .revoked
            state.revokedAt = key.createdAt
            if try updateDeviceKeyState(keyID: old.keyID, userID: key.userID, state: state) {
                revoked.append(old.keyID)
            }
        }
        return revoked.sorted()
    }

    /// Unlocks every locked key of `userID` (status active, zero failures, no lock time): what a fresh passkey
    /// login does (DESIGN.md, device keys). Returns how many keys changed.
    public func unlockDeviceKeys(userID: String) throws(StorageError) -> Int {
        var unlocked = 0
        for key in try deviceKeys(userID: userID) where key.status == .locked {
            var state = key.state
            state.status = .active
            state.failedAttempts = 0
            state.lockedAt = nil
            if try updateDeviceKeyState(keyID: key.keyID, userID: userID, state: state) { unlocked += 1 }
        }
        return unlocked
    }
}
