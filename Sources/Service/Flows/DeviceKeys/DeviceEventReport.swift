import Foundation

/// A `POST /device-events` body as the endpoint parsed it (`DeviceEventReporting`).
package struct DeviceEventReport: Sendable {
    /// `device_id`: the device whose keys the report is about.
    package let deviceID: String
    /// `type`.
    package let type: DeviceEventType
    /// `attempts`: the device's own count of consecutive failures, if it sent one.
    package let attempts: Int?
    /// `occurred_at`: the device's clock, kept as information only.
    package let deviceTime: Date?
    /// `device_proof`, for the reports that need proof of the device.
    package let deviceProof: DeviceProofField

    /// Creates the value from its stored properties.
    package init(
        deviceID: String, type: DeviceEventType, attempts: Int?, deviceTime: Date?, deviceProof: DeviceProofField
    ) {
        self.deviceID = deviceID
        self.type = type
        self.attempts = attempts
        self.deviceTime = deviceTime
        self.deviceProof = deviceProof
    }
}
