android {
    defaultConfig {
        minSdk = 24
        targetSdk = 37
    }
}
