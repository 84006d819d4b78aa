package com.example.shop.net

import java.net.URI
import okhttp3.CertificatePinner

class PinnedClientFactory(private val certificatePinner1: Array<String>) {
    fun pinner(): CertificatePinner = CertificatePinner.Builder()
        .add(URI(BuildConfig.API_URL).host, BuildConfig.CERTIFICATE_PIN)
        .add(Constants.CDN_HOST, Constants.PIN_1, Constants.PIN_2)
        .add("static.shop.example", *certificatePinner1)
        .add(String.format("%s.shop.example", BuildConfig.FLAVOR), BuildConfig.CERTIFICATE_PIN)
        .build()
}
