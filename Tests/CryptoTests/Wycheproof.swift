import Foundation

/// Wycheproof signature-verification vector files (ecdsa_verify_schema, eddsa_verify_schema).
struct WycheproofFile: Decodable {
    struct Key: Decodable {
        let curve: String
        /// ECDSA: the uncompressed point, hex.
        let uncompressed: String?
        /// EdDSA: the raw public key, hex.
        let pk: String?
    }

    struct TestCase: Decodable {
        let tcId: Int
        let comment: String
        let msg: String
        let sig: String
        let result: String
    }

    struct Group: Decodable {
        let publicKey: Key
        let publicKeyDer: String?
        let tests: [TestCase]
    }

    let numberOfTests: Int
    let testGroups: [Group]

    /// Loads `Fixtures/wycheproof/<name>`.
    static func load(_ name: String) throws -> WycheproofFile {
        try JSONDecoder().decode(WycheproofFile.self, from: TestFixtures.data("wycheproof/\(name)"))
    }

    /// Outcome counts of a run, so a test cannot pass on an empty or truncated file.
    struct Tally: Equatable, CustomStringConvertible {
        var validAccepted = 0
        var invalidRejected = 0
        var acceptable = 0
        var failures: [String] = []
        var description: String {
            "valid \(validAccepted), invalid \(invalidRejected), acceptable \(acceptable), failures \(failures)"
        }
    }

    /// Runs `verify` over every case: `valid` must pass, `invalid` must fail, `acceptable` is counted.
    func run(_ verify: (Group, TestCase) -> Bool) -> Tally {
        var tally = Tally()
        for group in testGroups {
            for test in group.tests {
                let accepted = verify(group, test)
                switch test.result {
                case "valid":
                    if accepted {
                        tally.validAccepted += 1
                    } else {
                        tally.failures.append("valid #\(test.tcId) rejected")
                    }
                case "invalid":
                    if !accepted {
                        tally.invalidRejected += 1
                    } else {
                        tally.failures.append("invalid #\(test.tcId) accepted (\(test.comment))")
                    }
                default:
                    tally.acceptable += 1
                }
            }
        }
        return tally
    }
}
