import Dispatch
import Foundation
import Service

/// Turns SIGTERM/SIGINT into an awaitable event. The signals' default action is disabled at creation, so a
/// signal is never lost between start-up and the first `next()`.
package final class SignalListener {
    private let stream: AsyncStream<Int32>
    /// Kept so the sources live as long as the listener.
    private let sources: [any DispatchSourceSignal]

    package init(signals: [Int32]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(4))
        self.stream = stream
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// Waits for the next signal.
    package func next() async -> Int32 {
        for await number in stream { return number }
        return SIGTERM
    }
}
