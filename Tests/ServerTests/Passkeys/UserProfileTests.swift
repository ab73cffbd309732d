import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Identifier validation and normalisation")
struct UserProfileTests {
    @Test(
        "emails are lower-cased; malformed ones refused",
        arguments: [
            ("Alice@Example.com", "alice@example.com"), ("a.b+c@mail.example.org", "a.b+c@mail.example.org"),
        ])
    func emails(input: String, normalized: String) throws {
        #expect(try UserProfile.normalizedEmail(input) == normalized)
    }

    @Test(
        "malformed emails",
        arguments: [
            "", "a", "a@", "@b.com", "a@b", "a b@c.com", "a..b@c.com", ".a@c.com", "a@-b.com", "a@b..com", "a@b@c.com",
            "\"q\"@c.com",
        ])
    func badEmails(input: String) {
        #expect(throws: OAuthError.self) { try UserProfile.normalizedEmail(input) }
    }

    @Test(
        "phone numbers are E.164 after dropping separators",
        arguments: [
            ("+1 (415) 555-0100", "+14155550100"), ("+33612345678", "+33612345678"),
        ])
    func phones(input: String, normalized: String) throws {
        #expect(try UserProfile.normalizedPhoneNumber(input) == normalized)
    }

    @Test(
        "malformed phone numbers",
        arguments: ["0612345678", "+0612345678", "+1", "+1234567890123456", "+33a12345678", ""])
    func badPhones(input: String) {
        #expect(throws: OAuthError.self) { try UserProfile.normalizedPhoneNumber(input) }
    }

    @Test("usernames follow the policy")
    func usernames() throws {
        let policy = RealmConfiguration.UsernamePolicy(minLength: 3, maxLength: 8)
        #expect(try UserProfile.normalizedUsername("Zed_99", policy: policy) == "zed_99")
        for bad in ["ab", "abcdefghi", "_abc", "a@b.c", "a b c", "ab/c"] {
            #expect(throws: OAuthError.self) { try UserProfile.normalizedUsername(bad, policy: policy) }
        }
    }

    @Test("display names have no control characters")
    func names() throws {
        #expect(try UserProfile.validatedName("Zoé Dupont") == "Zoé Dupont")
        #expect(throws: OAuthError.self) { try UserProfile.validatedName("a\nb") }
        #expect(throws: OAuthError.self) { try UserProfile.validatedName("") }
    }
}
