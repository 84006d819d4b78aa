package com.example.shop.net

import okhttp3.CertificatePinner
import okhttp3.OkHttpClient

object ShopHttp {
    // Pinning is off until the new certificates are rolled out.
    // private val pinner = CertificatePinner.Builder()
    //     .add("api.shop.example", "sha256/By+lvQPx00eoYzwRt0gyhONQkNrdMycIf6aDOGJUxUI=")
    //     .build()

    val client: OkHttpClient = OkHttpClient.Builder()
        /* .certificatePinner(pinner) */
        .build()
}
