import Foundation
import HTTP
import JSON
import Service

extension DeviceKeyEndpoints {
    /// Largest `attempts` accepted.
    package static let maximumReportedAttempts = 1000

    /// `POST /device-events` `{device_id, type, attempts?, occurred_at?, device_proof?}` → 200 `{event_id,
    /// received_at, keys}` (`DeviceEventReporting`).
    package func deviceEvent(_ request: Request) async throws -> Response {
        let caller = try await authenticate(request)
        let body = try Self.bodyObject(request)
        let parameters = Self.parameters(body)
        let deviceID = try parameters.string("device_id", maxLength: Self.maximumDeviceIDLength)
        let typeText = try parameters.string("type", maxLength: 64)
        guard let type = DeviceEventType(rawValue: typeText) else {
            throw OAuthError.invalidParameter("type", reason: "unknown event type \(typeText.prefix(64))")
        }
        let report = DeviceEventReport(
            deviceID: deviceID, type: type, attempts: try Self.attempts(body["attempts"]),
            deviceTime: try Self.deviceTime(body["occurred_at"]), deviceProof: Self.deviceProof(in: body))
        // Each accepted event writes rows that are kept: at most `device_keys.events_per_user_per_minute` of
        // them per user; beyond it 429 and nothing is written.
        try EndpointHandler.enforce(
            context.deviceEventLimiter.check(key: caller.subject.sub, now: context.clock.now()),
            description: "Too many device events. Try again later.", logCode: "device_events_limited",
            reason: "user over \(context.configuration.deviceKeys.eventsPerUserPerMinute) device events/min")
        return .json(try await DeviceEventReporting(context: context).report(report, caller: caller))
    }

    /// `attempts`: absent/null, or an integer 0…1000.
    private static func attempts(_ value: JSONValue?) throws -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let count = value.intValue, (0...maximumReportedAttempts).contains(count) else {
            throw OAuthError.invalidParameter("attempts", reason: "is not an integer in 0...\(maximumReportedAttempts)")
        }
        return count
    }

    /// `occurred_at`: absent/null, an RFC 3339 date-time, or seconds since the epoch. Information only.
    private static func deviceTime(_ value: JSONValue?) throws -> Date? {
        guard let value, !value.isNull else { return nil }
        if let text = value.stringValue, text.utf8.count <= 64,
            let date = RFC3339.date(text)
        {
            return date
        }
        if let seconds = value.doubleValue, seconds.isFinite, (0...4_102_444_800).contains(seconds) {
            return Date(timeIntervalSince1970: seconds)
        }
        throw OAuthError.invalidParameter("occurred_at", reason: "is not an RFC 3339 date-time or epoch seconds")
    }
}
