internal import CMicroHTTPD
import Synchronization

/// The request's task runs on the MHD thread that read the request (issue #35, "run to completion"): the context is
/// the task's executor preference (SE-0417), and its jobs run synchronously inside the access handler.
///
/// A job enqueued while the MHD thread runs the task (`.running`) or is about to (`.resumed`) waits in `jobs`; one
/// enqueued while the connection is suspended resumes it (MHD_resume_connection is thread-safe and wakes the
/// connection's thread), and the access handler, called again for the resumed connection, runs it
/// (`RequestDispatcher.run`). The connection is suspended only under the lock and only with no job queued and no
/// answer given, so a job or an answer arriving from another thread either finds the thread still running (and is
/// picked up before it suspends) or finds the connection suspended (and resumes it): never lost, never a resume
/// of a connection that is not suspended. Once the request is finished (answered, or dropped by MHD) its jobs go to
/// the cooperative pool: nobody reads its answer, and the thread belongs to other connections.
extension RequestContext: TaskExecutor {
    /// Queues `job` for the connection's MHD thread, resuming the connection if it is suspended; on the cooperative
    /// pool once the request is finished.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = execution.withLock { execution -> Bool in
            switch execution.phase {
            case .running, .resumed:
                execution.jobs.append(job)
                return true
            case .suspended:
                execution.jobs.append(job)
                execution.phase = .resumed
                // Under the lock: the connection is suspended (alive) until now, and nothing else resumes it.
                MHD_resume_connection(connection)
                return true
            case .receiving, .finished:
                return false
            }
        }
        if !queued { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// What the MHD thread does next for this request's task.
    enum Step {
        /// Run these jobs, in order, then ask again.
        case run([UnownedJob])
        /// Queue this answer: the request is done (its remaining jobs, if any, went to the pool).
        case answer(Response)
        /// The connection was suspended: return from the access handler.
        case suspended
    }

    /// The next step (MHD thread, inside the access handler): the answer if there is one, else the queued jobs,
    /// else suspend the connection — under the lock, so no job or answer can arrive unseen in between.
    func nextStep() -> Step {
        let step = execution.withLock { execution -> Step in
            if let answer = execution.answer { return .answer(answer) }
            guard execution.jobs.isEmpty else {
                defer { execution.jobs = [] }
                execution.phase = .running
                return .run(execution.jobs)
            }
            execution.phase = .suspended
            MHD_suspend_connection(connection)
            return .suspended
        }
        if case .answer = step { endExecution() }
        return step
    }
}
