import HTTP
import Service

extension DeviceKeyEndpoints {
    /// `POST /device-keys/{key_id}/unlock` → 200 with the key (`DeviceKeyUnlock`).
    package func unlock(_ request: Request) async throws -> Response {
        let caller = try await authenticate(request)
        return .json(try await DeviceKeyUnlock(context: context).unlock(keyID: Self.keyID(of: request), caller: caller))
    }
}
