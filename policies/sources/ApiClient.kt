package com.example.app.net

import okhttp3.CertificatePinner
import okhttp3.OkHttpClient

private const val API_HOST = "api.example.com"
private const val API_KEY_CURRENT = "sha256/V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU="
private const val API_KEY_NEXT = "sha256/kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow="

object ApiClient {
    // Pins: the API keys (current + next), and the keys of every other example.com service.
    private val pinner = CertificatePinner.Builder()
        .add(API_HOST, API_KEY_CURRENT, API_KEY_NEXT)
        .add(
            "**.example.com",
            "sha256/O4MNGvlUsPWNQXXQK2cRWHhcyrNwvjd+gKhFdH2d5y4=",
            "sha256/rdkf8/jIQCpK2HHmPVNFczL7hjxJxCB3tjK38TxHXHg=",
        )
        .add("*.uploads.example.org", "sha256/exRdwjZsQL+GLZZUOzPYrjaaNhy14GbptjWoIt5+duc=")
        .add("*.uploads.example.org", "sha256/8m+eG+x5zMwPVEYeNyiTF7scyqQw3ZwBfTm3l+Miv78=")
        .build()

    val client: OkHttpClient = OkHttpClient.Builder()
        .certificatePinner(pinner)
        .build()
}
