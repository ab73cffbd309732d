/// The settings table: one declaration per setting of the configuration (its key, type, default, range or choices,
/// and the README's line about it), by section, in `Settings+….swift`. The file's reader (`ServerConfiguration`)
/// reads every setting through its declaration, so defaults and ranges are written once; the environment overrides
/// (`EnvironmentOverrides`), the flags, and the README's configuration table (`Settings.markdownTable`, compared with
/// README.md by a test) all come from `all`.
///
/// Lists of records (`clients`, `apis`, `client_grants`, `realms`) are one setting each, read by their own readers
/// (`ServerConfiguration+Clients.swift`, `+APIs.swift`), which document their fields.
package enum Settings {
    /// Every setting, in the README's order.
    package static let all: [SettingDescriptor] =
        root + Listen.all + Admin.all + RelyingParty.all + [webOrigins.descriptor, dataDirectory.descriptor]
        + Database.all + HTTP.all + Tokens.all + Passkeys.all + DeviceKeys.all + DPoP.all + SRP.all + HostedLogin.all
        + OpenAPI.all
        + Metadata.all
        + Web.all + RateLimit.all + Audit.all + Recording.all + EncryptionAtRest.all + records

    /// The setting whose environment variable is `variable`.
    package static func setting(variable: String) -> SettingDescriptor? { byVariable[variable] }

    private static let byVariable = Dictionary(uniqueKeysWithValues: all.map { ($0.variable, $0) })
}
