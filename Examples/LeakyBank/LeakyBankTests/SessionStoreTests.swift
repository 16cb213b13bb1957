import XCTest
@testable import LeakyBank

final class SessionStoreTests: XCTestCase {
    func testLegacyArchiveStillLoads() throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: Session(userId: "u1"), requiringSecureCoding: false)
        // Test code: findings here are marked as test code.
        XCTAssertNotNil(NSKeyedUnarchiver.unarchiveObject(with: data))
    }
}
