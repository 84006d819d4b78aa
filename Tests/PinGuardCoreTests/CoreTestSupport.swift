import PinGuardCoreTestSupport

/// The fixtures the core, CT and service tests share, named here for every file of this target: no test file
/// needs an import of its own.
typealias ResultFixtures = PinGuardCoreTestSupport.ResultFixtures
