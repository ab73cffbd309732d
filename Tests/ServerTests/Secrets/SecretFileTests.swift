import Foundation
import Testing

@testable import Service

#if canImport(Glibc)
    import Glibc
#endif

/// `SecretFile`: the one way a secret is written to disk. The mode under a umask that takes owner bits away is
/// checked through the binary (`AuditSignerFileKeyTests`): a umask is the whole process's.
@Suite("Secret files: new, 0600, never through a link, replaced atomically")
struct SecretFileTests {
    /// A fresh directory of its own, removed by the caller.
    static func directory() throws -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("passkeyd-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    static func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    @Test("a created file holds exactly the bytes given, with mode 0600")
    func createRoundTrip() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/key"
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try SecretFile.create(path, contents: bytes)
        #expect(Self.contents(path) == bytes)
        #expect(Self.mode(path) == 0o600)
        try SecretFile.create(directory + "/empty", contents: [])
        #expect(Self.contents(directory + "/empty") == [])
    }

    @Test("an existing file is refused and left as it was; the error names the path and EEXIST")
    func createRefusesExisting() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/key"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
        let failure = #expect(throws: SecretFile.Failure.self) { try SecretFile.create(path, contents: [1, 2, 3]) }
        #expect(failure == SecretFile.Failure(.create, path, EEXIST))
        #expect(failure?.description.contains(path) == true)
        #expect(failure?.description.contains(String(cString: strerror(EEXIST))) == true)
        #expect(Self.contents(path) == Array("old".utf8))
    }

    @Test("a symbolic link at the name is refused, dangling or not: nothing is written where it points")
    func createRefusesSymbolicLink() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/elsewhere"
        let link = directory + "/key"
        #expect(symlink(target, link) == 0)
        #expect(throws: SecretFile.Failure(.create, link, EEXIST)) { try SecretFile.create(link, contents: [1]) }
        #expect(!FileManager.default.fileExists(atPath: target))

        #expect(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
        #expect(throws: SecretFile.Failure(.create, link, EEXIST)) { try SecretFile.create(link, contents: [1]) }
        #expect(Self.contents(target) == Array("old".utf8))
    }

    @Test("replace puts the new content in place with mode 0600 and leaves no temporary file")
    func replaceRoundTrip() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/key"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
        chmod(path, 0o644)
        try SecretFile.replace(path, contents: Array("new".utf8), through: path + ".tmp")
        #expect(Self.contents(path) == Array("new".utf8))
        #expect(Self.mode(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["key"])
        // Where nothing was, the file is simply created.
        try SecretFile.replace(directory + "/fresh", contents: [7], through: directory + "/fresh.tmp")
        #expect(Self.contents(directory + "/fresh") == [7])
    }

    @Test("replace keepingAttributes gives the new file the replaced one's owner, group and mode")
    func replaceKeepsAttributes() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/key"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
        #expect(chmod(path, 0o640) == 0)
        // Another group than the process's own, where the test may give one (as root).
        let group: gid_t = geteuid() == 0 ? 4_242 : getegid()
        #expect(chown(path, geteuid(), group) == 0)
        try SecretFile.replace(path, contents: Array("new".utf8), through: path + ".tmp", keepingAttributes: true)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o640 && status.st_uid == geteuid() && status.st_gid == group)
        #expect(Self.contents(path) == Array("new".utf8))

        // Nothing to keep the attributes of: refused, and nothing is created.
        let missing = directory + "/missing"
        #expect(throws: SecretFile.Failure(.readAttributes, missing, ENOENT)) {
            try SecretFile.replace(missing, contents: [1], through: missing + ".tmp", keepingAttributes: true)
        }
        #expect(!FileManager.default.fileExists(atPath: missing + ".tmp"))
    }

    @Test("a replace that fails leaves the old content and no temporary file of its own")
    func replaceFailureKeepsOld() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/key"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
        // The temporary name is taken (a file, or a link planted there): refused before anything is written.
        #expect(symlink(path, path + ".tmp") == 0)
        #expect(throws: SecretFile.Failure(.create, path + ".tmp", EEXIST)) {
            try SecretFile.replace(path, contents: Array("new".utf8), through: path + ".tmp")
        }
        #expect(Self.contents(path) == Array("old".utf8))
        #expect(unlink(path + ".tmp") == 0)

        // The rename fails (a directory is in the way): the written temporary file is removed, the directory stays.
        let occupied = directory + "/occupied"
        try FileManager.default.createDirectory(atPath: occupied + "/inside", withIntermediateDirectories: true)
        let failure = #expect(throws: SecretFile.Failure.self) {
            try SecretFile.replace(occupied, contents: Array("new".utf8), through: occupied + ".tmp")
        }
        #expect(failure?.step == .rename && failure?.path == occupied + ".tmp")
        #expect(!FileManager.default.fileExists(atPath: occupied + ".tmp"))
        #expect(FileManager.default.fileExists(atPath: occupied + "/inside"))
        #expect(Self.contents(path) == Array("old".utf8))
    }
}
