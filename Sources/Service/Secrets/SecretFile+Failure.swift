import Foundation

extension SecretFile {
    /// Why a secret file could not be written: the step that failed, the file it failed on and the `errno` it
    /// failed with.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The step of `SecretFile.create` or `SecretFile.replace` that failed.
        package enum Step: Sendable {
            /// open(2) of the new file (`EEXIST`: something is at its name already), or its `fchmod` to 0600.
            case create
            /// write(2) of its bytes.
            case write
            /// fsync(2) of the file.
            case flush
            /// close(2) of the file.
            case close
            /// stat(2) of the file being replaced, for its owner, group and mode.
            case readAttributes
            /// Giving the new file the replaced file's owner, group and mode.
            case keepAttributes
            /// rename(2) of the temporary file over the replaced one.
            case rename
            /// fsync(2) of the directory holding the file.
            case flushDirectory
        }

        package let step: Step
        /// The file (for `flushDirectory`, the directory) the step failed on.
        package let path: String
        /// The `errno` of the failed call.
        package let code: Int32

        package init(_ step: Step, _ path: String, _ code: Int32) {
            self.step = step
            self.path = path
            self.code = code
        }

        package var description: String {
            let what: String
            switch step {
            case .create: what = "create"
            case .write: what = "write"
            case .flush: what = "flush"
            case .close: what = "close"
            case .readAttributes: what = "read the owner, group and mode of"
            case .keepAttributes: what = "keep the replaced file's owner, group and mode on"
            case .rename: what = "rename"
            case .flushDirectory: what = "flush the directory"
            }
            return "cannot \(what) \(path): \(String(cString: strerror(code)))"
        }
    }
}
