import Dispatch
import Foundation
import Testing

@testable import passkeyd_loadgen

@Suite("--server-pid and --database-pid: a process's CPU time and context switches from /proc")
struct ProcessCountersTests {
    @Test("a stat line's CPU ticks and parent are read after the command name, whatever it holds")
    func statLine() throws {
        // proc(5): pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
        // cutime cstime …; the name may hold spaces and parentheses.
        let text = "4242 (postgres: a (b) c) S 17 4242 4242 0 -1 4194560 900 0 0 0 120 30 7 3 20 0 1 0 55 1000 200"
        let line = try #require(StatLine(text))
        #expect(line == StatLine("1 (x) R 17 0 0 0 0 0 0 0 0 0 120 30 7 3 20"))
        #expect(line.own == 150)
        #expect(line.reaped == 10)
        #expect(line.parent == 17)
        #expect(StatLine("4242 (truncated) S 17 4242") == nil)
        #expect(StatLine("no name here") == nil)
    }

    @Test("a status file's context switches are the voluntary and the involuntary ones together")
    func status() {
        let text = "Name:\tpasskeyd\nThreads:\t9\nvoluntary_ctxt_switches:\t1200\nnonvoluntary_ctxt_switches:\t34\n"
        #expect(ProcessCounters.contextSwitches(status: text) == 1234)
        #expect(ProcessCounters.contextSwitches(status: "Name:\tx\n") == nil)
        #expect(ProcessCounters.contextSwitches(status: "voluntary_ctxt_switches:\tmany\n") == nil)
    }

    @Test("the switches of a window are each thread's growth: a new thread in full, an ended one not at all")
    func growth() {
        let first = ProcessCounters(cpuSeconds: 1, threadSwitches: [10: 100, 11: 50, 12: 7])
        let last = ProcessCounters(cpuSeconds: 3, threadSwitches: [10: 130, 11: 50, 13: 5])
        #expect(last.contextSwitches(since: first) == 35)
        let window = WindowCounters(server: (first, last), database: (nil, last))
        #expect(window.serverCPUSeconds == 2)
        #expect(window.serverContextSwitches == 35)
        #expect(window.databaseCPUSeconds == nil)
    }

    @Test("this process reads as a server: its CPU time, and one entry per live thread")
    func ownProcess() throws {
        let pid = getpid()
        let counters = try #require(ProcessCounters.server(pid: pid))
        #expect(counters.cpuSeconds >= 0)
        #expect(counters.threadSwitches[Int(pid)] != nil)
        // This process has a parent that lists it among its children.
        let parent = try #require(ProcessCounters.database(pid: getppid()))
        #expect(parent.cpuSeconds >= 0)
        #expect(ProcessCounters.server(pid: Int32.max) == nil)
    }

    @Test("a window whose edges have passed is sampled at once, start and end")
    func pastWindow() throws {
        let now = DispatchTime.now().uptimeNanoseconds
        let sampler = WindowSampler(serverPID: getpid(), databasePID: nil, measureFrom: now - 2, deadline: now - 1)
        let window = try #require(sampler.result())
        #expect(try #require(window.serverCPUSeconds) >= 0)
        #expect(try #require(window.serverContextSwitches) >= 0)
        #expect(window.databaseCPUSeconds == nil)
    }

    @Test("--server-pid and --database-pid take a process id, with --login only")
    func settings() throws {
        let settings = try LoadgenSettings.parse(["--login", "--server-pid", "4242", "--database-pid", "17"])
        #expect(settings.serverPID == 4242)
        #expect(settings.databasePID == 17)
        #expect(try LoadgenSettings.parse(["--login"]).serverPID == nil)
        #expect(throws: LoadgenError.self) { try LoadgenSettings.parse(["--login", "--server-pid", "0"]) }
        #expect(throws: LoadgenError.self) { try LoadgenSettings.parse(["--login", "--server-pid", "1.5"]) }
        #expect(throws: LoadgenError.self) { try LoadgenSettings.parse(["--signup", "5", "--server-pid", "42"]) }
    }
}
