import Dispatch
import Foundation
import SoftwareClient
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The same exchange through URLSession, made synchronous with a semaphore (each virtual client is its own
/// thread, never the cooperative pool). Kept to measure against the socket client.
final class URLSessionTransport: HTTPTransport {
    private let base: URL
    private let session: URLSession

    init(base: URL, session: URLSession) {
        self.base = base
        self.session = session
    }

    func post(_ path: String, body: [UInt8]) throws(SoftwareClientError) -> (status: Int, body: [UInt8]) {
        var request = try makeRequest(path)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        return try perform(request)
    }

    func get(_ path: String) throws(SoftwareClientError) -> (status: Int, body: [UInt8]) {
        try perform(try makeRequest(path))
    }

    private func makeRequest(_ path: String) throws(SoftwareClientError) -> URLRequest {
        guard let url = URL(string: path, relativeTo: base) else {
            throw SoftwareClientError(.transport, "bad path \(path)")
        }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    private func perform(_ request: URLRequest) throws(SoftwareClientError) -> (status: Int, body: [UInt8]) {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            let result: Result<(Int, [UInt8]), SoftwareClientError>
            if let error {
                result = .failure(SoftwareClientError(.transport, "\(error)"))
            } else if let http = response as? HTTPURLResponse {
                result = .success((http.statusCode, Array(data ?? Data())))
            } else {
                result = .failure(SoftwareClientError(.malformedResponse, "not an HTTP response"))
            }
            outcome.value.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        done.wait()
        switch outcome.value.withLock({ $0 }) {
        case .success(let value): return value
        case .failure(let error): throw error
        case nil: throw SoftwareClientError(.transport, "no outcome")
        }
    }
}

/// Where the completion handler leaves the result for the waiting thread.
private final class Outcome: Sendable {
    let value = Mutex<Result<(Int, [UInt8]), SoftwareClientError>?>(nil)
}
