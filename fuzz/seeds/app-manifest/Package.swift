let package = Package(name: "App", platforms: [.iOS(.v16_4), .macOS(.v13)])
