import CoreLocation

/// Finds the nearest branch. The app never declares NSLocationWhenInUseUsageDescription, so this
/// request crashes the app on first use and App Review rejects the build.
final class BranchLocator: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()

    func start() {
        manager.delegate = self
        manager.requestWhenInUseAuthorization()
    }
}
