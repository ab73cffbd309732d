/// How the WAL's frames have been copied into the database file since the store opened (see
/// `SQLiteCheckpointer`): for tests, and for operators wondering whether the background copy keeps up.
public struct SQLiteCheckpointStatistics: Sendable, Equatable {
    /// Checkpoints run by the background connection (the bulk of the copying).
    public var background = 0
    /// Checkpoints the writer ran after a background one, to copy the frames committed meanwhile so the WAL
    /// restarts from its beginning.
    public var writerTail = 0
    /// Checkpoints the writer ran itself because the WAL had grown past four times the threshold (the
    /// background copy not keeping up, or failing).
    public var writerFallback = 0
    /// Background checkpoints that failed (the frames stay in the WAL; the next one tries again).
    public var failures = 0

    public init() {}
}
