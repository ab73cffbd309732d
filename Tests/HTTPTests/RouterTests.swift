import Testing
@testable import HTTP
