import WebAuthn

/// The COSE algorithms of passkeys: what the creation options offer (WebAuthn L3 §5.4 `pubKeyCredParams`: EdDSA,
/// ES256, RS256, in Auth0's order) and exactly what a registration may then use (§7.1 step 19: only what was
/// offered). One list for both.
package enum PasskeyAlgorithms {
    /// Offered and accepted, in the order of the options.
    package static let offered: [COSEAlgorithm] = [.edDSA, .es256, .rs256]
}
