import Configuration
import PKCS11Signer

extension PKCS11Settings {
    /// Where the key is, as the PKCS#11 code takes it (the configuration knows no PKCS#11 code).
    package var location: PKCS11Location {
        PKCS11Location(module: module, tokenLabel: tokenLabel, keyLabel: keyLabel)
    }
}
