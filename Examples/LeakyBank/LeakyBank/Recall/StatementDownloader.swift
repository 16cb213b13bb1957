import Foundation

final class StatementDownloader {
    let session = StatementSessionFactory().make(timeout: 60)
    let archiveSession = StatementSessionFactory().makeModern()
}
