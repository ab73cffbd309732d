/// `passkeyd device-keys revoke USER KEY_ID`.
package struct DeviceKeysRevokeCommand: AccountCommand, Equatable {
    /// The user's id.
    static let user = Operand("USER")
    /// The device key's id.
    static let key = Operand("KEY_ID")

    package static let words = ["device-keys", "revoke"]
    package static let operands = [user, key]
    package static let summary = """
        Revoke a device key of the user.
        """

    package var options: AccountOptions
    package var request: AdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .revokeDeviceKey(userID: arguments.word(Self.user), keyID: arguments.word(Self.key))
    }
}
