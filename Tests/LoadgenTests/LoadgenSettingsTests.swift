import Testing

@testable import passkeyd_loadgen

@Suite("passkeyd-loadgen's options")
struct LoadgenSettingsTests {
    @Test("--audience names the API of the token requests; without it none is named")
    func audience() throws {
        #expect(try LoadgenSettings.parse(["--once"]).audience == nil)
        let settings = try LoadgenSettings.parse(["--once", "--audience", "http://localhost:8080/me/"])
        #expect(settings.audience == "http://localhost:8080/me/")
        #expect(throws: LoadgenError.self) { try LoadgenSettings.parse(["--once", "--audience"]) }
    }
}
