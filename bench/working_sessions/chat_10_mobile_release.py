"""A solo developer in Leipzig builds and ships a Kotlin Android habit tracker with a small paid tier,
working early mornings around a day job and two small children: Gradle and signing, Room migrations, a
closed test, crashes from the Play Console, CI on GitHub Actions, a staged launch and a price test,
with a part-time designer who changes along the way."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, u, w

S1 = Session(
    "2026-08-03T04:40:00Z",
    [
        u(
            w(
                r"""
                Morning. It's 6:40 here, the house is still asleep, and this is the only hour of the day
                that belongs to me, so let's use it. Context: I'm a backend developer at an insurance
                company in Leipzig during the day (Kotlin and Spring, claims processing, very unglamorous)
                and in the mornings I'm building an Android app called Streakwise. It's a habit tracker:
                you define habits, tick them off, it keeps streaks and nudges you with a reminder. Jetpack
                Compose, Room for storage, no backend at all, everything on the device. There'll be a small
                paid tier ("Pro") for the nicer features. Paulina, a freelance designer I know from an old
                job, does the design for me part-time, one day a week, mostly Tuesdays. The plan is to put
                1.0 on Google Play on 2026-09-15. I've never published anything on Play before. I've got
                the app running on my own phone and that's about it: no signing set up, no CI, no store
                listing. Can you help me get from "runs on my Pixel" to "people can buy it"?
                """
            ),
            key="s1-intro",
        ),
        a(
            w(
                r"""
                Yes, and six weeks is enough if we do things in the right order. The trap for a first Play
                release isn't the code, it's the process around it: signing, the store listing, Google's
                testing requirements for new accounts, and billing, which needs a build uploaded to Play
                before you can even test a purchase. So I'd sequence it like this:

                1. **Build and signing.** A release build type with R8 turned on and a signing config that
                   reads the key from outside the repository. Then enrol in Play App Signing, so the key you
                   hold is only an *upload* key.
                2. **Data you won't regret.** Room with schema export switched on and every schema change
                   done as a tested migration from the first public build onwards. Once strangers have your
                   database on their phones, a bad migration is the one bug you can't fix by shipping a new
                   version, because the data is already gone.
                3. **Play Console account and testing track.** If your developer account is a new personal
                   account, Google requires a closed test with a minimum number of opted-in testers for
                   14 continuous days before you're allowed to apply for production access. That alone can
                   eat half your runway, so we should check it early.
                4. **Billing.** Play Billing Library, one subscription product with a monthly and a yearly
                   base plan. You'll need an uploaded build on a testing track and licence testers to try a
                   purchase.
                5. **CI.** A GitHub Actions workflow that builds the signed bundle on every tag, so a release
                   never depends on what happens to be on your laptop.
                6. **Launch.** Staged rollout to production, watch Android vitals, widen.

                Items 3 and 1 are the urgent ones, because 3 has a clock on it. Two questions before we
                start:

                - Have you created the Play Console developer account yet, and is it a personal or an
                  organisation account?
                - Can you paste your `app/build.gradle.kts` (or `build.gradle`) as it is now? I'd like to
                  see your SDK levels and plugins before I suggest a signing setup.
                """
            )
        ),
        u(
            w(
                r"""
                Personal account, created last week, so yes, I'm probably in the new-account rules. Here's
                the app module file. And it's `.kts`, always: we use the Kotlin DSL at work too and I can't
                stand Groovy build scripts, so please never hand me a Groovy snippet, even if that's what the
                docs page you're thinking of shows.

                ```kotlin
                plugins {
                    alias(libs.plugins.android.application)
                    alias(libs.plugins.kotlin.android)
                    alias(libs.plugins.kotlin.compose)
                    alias(libs.plugins.ksp)
                }

                android {
                    namespace = "com.lowtide.streakwise"
                    compileSdk = 35

                    defaultConfig {
                        applicationId = "com.lowtide.streakwise"
                        minSdk = 24
                        targetSdk = 35
                        versionCode = 1
                        versionName = "0.1.0"
                    }

                    buildTypes {
                        release {
                            isMinifyEnabled = false
                        }
                    }
                    compileOptions {
                        sourceCompatibility = JavaVersion.VERSION_17
                        targetCompatibility = JavaVersion.VERSION_17
                    }
                    kotlinOptions {
                        jvmTarget = "17"
                    }
                    buildFeatures {
                        compose = true
                    }
                }

                dependencies {
                    implementation(platform(libs.androidx.compose.bom))
                    implementation(libs.androidx.compose.material3)
                    implementation(libs.androidx.activity.compose)
                    implementation(libs.androidx.lifecycle.viewmodel.compose)
                    implementation(libs.androidx.room.runtime)
                    implementation(libs.androidx.room.ktx)
                    ksp(libs.androidx.room.compiler)
                    testImplementation(libs.junit)
                }
                ```
                """
            ),
            key="s1-build",
        ),
        u(
            "One rule before you answer: whenever you change a build or config file, give me the entire file "
            "back, not a fragment with 'add this under android {}'. I paste it over the old one and let git show "
            "me what changed. Me merging snippets by hand at 6am is how bugs get in.",
            key="si-wholefile",
        ),
        a(
            w(
                r"""
                Understood on both counts: Kotlin DSL only, and the complete file every time.

                Here's `app/build.gradle.kts` with a release signing config, R8 switched on and resource
                shrinking. The key itself never goes into the repository. Locally the values come from a
                `keystore.properties` file in the project root (which you git-ignore); on CI they'll come
                from environment variables, so the same file works in both places.

                ```kotlin
                import java.util.Properties

                plugins {
                    alias(libs.plugins.android.application)
                    alias(libs.plugins.kotlin.android)
                    alias(libs.plugins.kotlin.compose)
                    alias(libs.plugins.ksp)
                }

                // Signing values: keystore.properties locally, environment variables on CI.
                val keystoreProperties = Properties().apply {
                    val file = rootProject.file("keystore.properties")
                    if (file.exists()) file.inputStream().use { load(it) }
                }

                fun signingValue(key: String, env: String): String? =
                    keystoreProperties.getProperty(key) ?: System.getenv(env)

                android {
                    namespace = "com.lowtide.streakwise"
                    compileSdk = 35

                    defaultConfig {
                        applicationId = "com.lowtide.streakwise"
                        minSdk = 24
                        targetSdk = 35
                        versionCode = 1
                        versionName = "0.1.0"
                    }

                    signingConfigs {
                        create("release") {
                            val storePath = signingValue("storeFile", "STREAKWISE_STORE_FILE")
                            if (storePath != null) {
                                storeFile = file(storePath)
                                storePassword = signingValue("storePassword", "STREAKWISE_STORE_PASSWORD")
                                keyAlias = signingValue("keyAlias", "STREAKWISE_KEY_ALIAS")
                                keyPassword = signingValue("keyPassword", "STREAKWISE_KEY_PASSWORD")
                            }
                        }
                    }

                    buildTypes {
                        release {
                            isMinifyEnabled = true
                            isShrinkResources = true
                            proguardFiles(
                                getDefaultProguardFile("proguard-android-optimize.txt"),
                                "proguard-rules.pro",
                            )
                            signingConfig = signingConfigs.getByName("release")
                        }
                        debug {
                            applicationIdSuffix = ".debug"
                            versionNameSuffix = "-debug"
                        }
                    }
                    compileOptions {
                        sourceCompatibility = JavaVersion.VERSION_17
                        targetCompatibility = JavaVersion.VERSION_17
                    }
                    kotlinOptions {
                        jvmTarget = "17"
                    }
                    buildFeatures {
                        compose = true
                        buildConfig = true
                    }
                }

                dependencies {
                    implementation(platform(libs.androidx.compose.bom))
                    implementation(libs.androidx.compose.material3)
                    implementation(libs.androidx.activity.compose)
                    implementation(libs.androidx.lifecycle.viewmodel.compose)
                    implementation(libs.androidx.room.runtime)
                    implementation(libs.androidx.room.ktx)
                    ksp(libs.androidx.room.compiler)
                    testImplementation(libs.junit)
                }
                ```

                And the `keystore.properties` it expects (project root, next to `settings.gradle.kts`):

                ```properties
                storeFile=/home/you/keys/streakwise-upload.jks
                storePassword=...
                keyAlias=upload
                keyPassword=...
                ```

                To create the key, if you haven't:

                ```bash
                keytool -genkeypair -v \
                  -keystore ~/keys/streakwise-upload.jks \
                  -alias upload -keyalg RSA -keysize 4096 -validity 10000
                ```

                Three notes:

                - The `debug` suffix means a debug build installs *next to* the store version on your phone
                  instead of replacing it, which you'll want once you're using the real app every day.
                - With R8 on, run the release build on your phone before anything else. Room, Compose and
                  Kotlin serialization ship their own keep rules, so usually nothing breaks, but reflection
                  in your own code would.
                - `isShrinkResources` only removes resources that nothing references; if you load a drawable
                  by name with `getIdentifier`, it will be stripped.

                Try `./gradlew :app:bundleRelease` and tell me if it signs.
                """
            )
        ),
        u(
            w(
                r"""
                Bundle builds and signs, 5.4 MB AAB. Release build runs fine on the Pixel. Question about
                the key though. The Play Console keeps pushing "Play App Signing" at me. If Google holds the
                real signing key, does it matter much if I lose this upload key? And where do people actually
                keep these things?
                """
            )
        ),
        a(
            w(
                r"""
                With Play App Signing, there are two keys:

                - The **app signing key**, which Google generates and keeps. It signs the APKs that are
                  actually delivered to phones. Users' devices only ever see this one, and it can never
                  change for the life of the app.
                - The **upload key**, which is the `.jks` you just made. It proves to Google that an
                  uploaded bundle came from you. Google checks it on upload and then re-signs with the app
                  signing key.

                So losing the upload key is no longer fatal the way it was in the old days, when losing
                your only key meant publishing a new app under a new package name. If you lose it (or it
                leaks), the account owner can request an upload key reset in the Play Console under
                *Setup → App signing*. But it isn't instant: you generate a new key, export the certificate,
                Google support processes it, and you can't upload anything until it's done. That's usually a
                couple of days. During launch week that would hurt.

                So treat it as important but recoverable. What people do, in roughly increasing order of
                sense:

                1. Keep it only on the laptop. (Don't. A disk dies and you're waiting on support.)
                2. A password manager that supports file attachments, with the keystore and both passwords
                   in the same entry. Good for day-to-day and for CI setup.
                3. Plus one offline copy somewhere physical, on a USB stick or printed as base64 if you're
                   dramatic about it, in a place that survives the laptop being stolen along with the bag.

                Option 2 plus 3 is what I'd do. Also write down, in the same password manager entry, the
                SHA-256 fingerprint of the upload certificate (`keytool -list -v -keystore ...`) so you can
                tell later which key is which.

                Do you have something physical and fireproof at home, or would the offline copy go to
                someone you trust?
                """
            )
        ),
        u(
            w(
                r"""
                Done. Keystore and both passwords are in 1Password, with the fingerprint, and there's a USB
                stick with a copy in the fire safe in the hallway cupboard where our passports live. Jonas
                asked why I was putting a USB stick next to the passports at 7am and I said "business
                continuity" and he went back to bed.
                """
            ),
            key="sf-keystore",
        ),
        a(
            w(
                r"""
                That's a better setup than most companies I'd guess at. Two small things to close the loop
                on signing:

                Add these to `.gitignore` so neither the properties nor any stray keystore can be committed
                by accident:

                ```gitignore
                # signing
                keystore.properties
                *.jks
                *.keystore
                ```

                And when you create the app in the Play Console, opt in to Play App Signing with "Let Google
                manage and protect your app signing key". It's the default for new apps anyway, and bundles
                (AAB) require it.

                Next time I'd like to look at the database, because that's the area where a mistake before
                launch costs the most afterwards. If you can, paste your entities and the `@Database` class.
                """
            )
        ),
        u(
            "Will do. App created in the console as Streakwise, developer name shows as Lowtide Apps. Elsie's "
            "awake and demanding porridge, so that's me done for today."
        ),
        a(
            "Good start: signed bundle, key backed up twice, console entry in place. Enjoy the porridge shift. "
            "Next session: Room entities and migrations."
        ),
    ],
)

S2 = Session(
    "2026-08-06T04:55:00Z",
    [
        u(
            w(
                r"""
                Database time. Current state: Room, `AppDatabase` at version 3 (I changed it twice while
                playing around and just uninstalled the app both times, which I gather I can't do any more
                once there are users). Two entities:

                ```kotlin
                @Entity(tableName = "habits")
                data class HabitEntity(
                    @PrimaryKey(autoGenerate = true) val id: Long = 0,
                    val name: String,
                    val colour: Int,
                    @ColumnInfo(name = "created_at") val createdAt: Long,
                    @ColumnInfo(name = "archived") val archived: Boolean = false,
                )

                @Entity(
                    tableName = "check_ins",
                    foreignKeys = [ForeignKey(
                        entity = HabitEntity::class,
                        parentColumns = ["id"],
                        childColumns = ["habit_id"],
                        onDelete = ForeignKey.CASCADE,
                    )],
                    indices = [Index("habit_id"), Index(value = ["habit_id", "day"], unique = true)],
                )
                data class CheckInEntity(
                    @PrimaryKey(autoGenerate = true) val id: Long = 0,
                    @ColumnInfo(name = "habit_id") val habitId: Long,
                    val day: Long, // epoch day
                )

                @Database(entities = [HabitEntity::class, CheckInEntity::class], version = 3)
                abstract class AppDatabase : RoomDatabase() {
                    abstract fun habitDao(): HabitDao
                    abstract fun checkInDao(): CheckInDao
                }
                ```

                First Pro feature I want is streak freezes: you earn a freeze token for every 7-day streak,
                and if you miss a day the app spends a token instead of resetting your streak. So a habit
                needs to store how many tokens it has. Paulina's already drawn a little snowflake for it.
                """
            ),
            key="mt-pro-freeze",
        ),
        a(
            w(
                r"""
                Good timing: this is the last moment a schema change is free, so let's do it properly and
                use it to set up the habits you'll need from now on.

                **Step 1: export schemas.** Room can write a JSON description of every schema version into
                the repository. Migration tests need those files, and they make every schema change visible
                in code review. With the Room Gradle plugin (Room 2.6+) that's a plugin plus one block. Here
                is the whole `app/build.gradle.kts` again:

                ```kotlin
                import java.util.Properties

                plugins {
                    alias(libs.plugins.android.application)
                    alias(libs.plugins.kotlin.android)
                    alias(libs.plugins.kotlin.compose)
                    alias(libs.plugins.ksp)
                    alias(libs.plugins.room)
                }

                val keystoreProperties = Properties().apply {
                    val file = rootProject.file("keystore.properties")
                    if (file.exists()) file.inputStream().use { load(it) }
                }

                fun signingValue(key: String, env: String): String? =
                    keystoreProperties.getProperty(key) ?: System.getenv(env)

                android {
                    namespace = "com.lowtide.streakwise"
                    compileSdk = 35

                    defaultConfig {
                        applicationId = "com.lowtide.streakwise"
                        minSdk = 24
                        targetSdk = 35
                        versionCode = 2
                        versionName = "0.2.0"
                        testInstrumentationRunner = "androidx.test.runner.AndroidJUnitRunner"
                    }

                    signingConfigs {
                        create("release") {
                            val storePath = signingValue("storeFile", "STREAKWISE_STORE_FILE")
                            if (storePath != null) {
                                storeFile = file(storePath)
                                storePassword = signingValue("storePassword", "STREAKWISE_STORE_PASSWORD")
                                keyAlias = signingValue("keyAlias", "STREAKWISE_KEY_ALIAS")
                                keyPassword = signingValue("keyPassword", "STREAKWISE_KEY_PASSWORD")
                            }
                        }
                    }

                    buildTypes {
                        release {
                            isMinifyEnabled = true
                            isShrinkResources = true
                            proguardFiles(
                                getDefaultProguardFile("proguard-android-optimize.txt"),
                                "proguard-rules.pro",
                            )
                            signingConfig = signingConfigs.getByName("release")
                        }
                        debug {
                            applicationIdSuffix = ".debug"
                            versionNameSuffix = "-debug"
                        }
                    }
                    compileOptions {
                        sourceCompatibility = JavaVersion.VERSION_17
                        targetCompatibility = JavaVersion.VERSION_17
                    }
                    kotlinOptions {
                        jvmTarget = "17"
                    }
                    buildFeatures {
                        compose = true
                        buildConfig = true
                    }
                    sourceSets {
                        // lets MigrationTestHelper read the exported schemas
                        getByName("androidTest").assets.srcDir("$projectDir/schemas")
                    }
                }

                room {
                    schemaDirectory("$projectDir/schemas")
                }

                dependencies {
                    implementation(platform(libs.androidx.compose.bom))
                    implementation(libs.androidx.compose.material3)
                    implementation(libs.androidx.activity.compose)
                    implementation(libs.androidx.lifecycle.viewmodel.compose)
                    implementation(libs.androidx.room.runtime)
                    implementation(libs.androidx.room.ktx)
                    ksp(libs.androidx.room.compiler)
                    testImplementation(libs.junit)
                    androidTestImplementation(libs.androidx.room.testing)
                    androidTestImplementation(libs.androidx.test.runner)
                    androidTestImplementation(libs.androidx.test.ext.junit)
                }
                ```

                You'll need the `room` plugin and `room-testing` in `libs.versions.toml`
                (`androidx.room` plugin id, same version as the Room runtime).

                **Step 2: freeze version 3 as your baseline.** Build once with version still at 3, so
                `schemas/com.lowtide.streakwise.data.AppDatabase/3.json` exists, and commit it. Your testers
                and you are on 3, so 3 is where real migrations start.

                **Step 3: the migration to 4.** A freeze count is one integer column on `habits`. SQLite can
                add a column with `ALTER TABLE`, and the column must match exactly what Room expects from the
                entity: same name, same type, same nullability, same default.

                ```kotlin
                @Entity(tableName = "habits")
                data class HabitEntity(
                    @PrimaryKey(autoGenerate = true) val id: Long = 0,
                    val name: String,
                    val colour: Int,
                    @ColumnInfo(name = "created_at") val createdAt: Long,
                    @ColumnInfo(name = "archived") val archived: Boolean = false,
                    @ColumnInfo(name = "freeze_tokens", defaultValue = "0") val freezeTokens: Int = 0,
                )
                ```

                ```kotlin
                // data/Migrations.kt
                package com.lowtide.streakwise.data

                import androidx.room.migration.Migration
                import androidx.sqlite.db.SupportSQLiteDatabase

                val MIGRATION_3_4 = object : Migration(3, 4) {
                    override fun migrate(db: SupportSQLiteDatabase) {
                        db.execSQL(
                            "ALTER TABLE habits ADD COLUMN freeze_tokens INTEGER NOT NULL DEFAULT 0"
                        )
                    }
                }

                val ALL_MIGRATIONS = arrayOf(MIGRATION_3_4)
                ```

                And in the builder:

                ```kotlin
                Room.databaseBuilder(context, AppDatabase::class.java, "streakwise.db")
                    .addMigrations(*ALL_MIGRATIONS)
                    .build()
                ```

                Bump `@Database(version = 4)`. Note what I did *not* add: `fallbackToDestructiveMigration()`.
                It's tempting, because it makes a missing migration "work", but what it actually does is
                delete every habit and every check-in the user has. For a streak app that's the worst
                possible bug: the whole point of the data is that it's years long.

                Next, a test that proves the migration runs against the real version-3 schema. Want me to
                write it now?
                """
            ),
            key="db-migration",
        ),
        u("Yes please. And how do I make sure a missing migration fails loudly in CI rather than on someone's phone?"),
        a(
            w(
                r"""
                The test does both: it fails if the migration SQL is wrong, and Room's validation at the end
                fails if the migrated table doesn't match what the entities expect.

                ```kotlin
                // app/src/androidTest/java/com/lowtide/streakwise/data/MigrationTest.kt
                package com.lowtide.streakwise.data

                import androidx.room.Room
                import androidx.room.testing.MigrationTestHelper
                import androidx.test.ext.junit.runners.AndroidJUnit4
                import androidx.test.platform.app.InstrumentationRegistry
                import org.junit.Assert.assertEquals
                import org.junit.Rule
                import org.junit.Test
                import org.junit.runner.RunWith

                private const val TEST_DB = "migration-test"

                @RunWith(AndroidJUnit4::class)
                class MigrationTest {

                    @get:Rule
                    val helper = MigrationTestHelper(
                        InstrumentationRegistry.getInstrumentation(),
                        AppDatabase::class.java,
                    )

                    @Test
                    fun migrate3To4_keepsHabitsAndAddsZeroFreezeTokens() {
                        helper.createDatabase(TEST_DB, 3).apply {
                            execSQL(
                                "INSERT INTO habits (id, name, colour, created_at, archived) " +
                                    "VALUES (1, 'Read 10 pages', -16776961, 1722470400000, 0)"
                            )
                            execSQL("INSERT INTO check_ins (id, habit_id, day) VALUES (1, 1, 19935)")
                            close()
                        }

                        val db = helper.runMigrationsAndValidate(TEST_DB, 4, true, MIGRATION_3_4)

                        db.query("SELECT name, freeze_tokens FROM habits WHERE id = 1").use { c ->
                            c.moveToFirst()
                            assertEquals("Read 10 pages", c.getString(0))
                            assertEquals(0, c.getInt(1))
                        }
                        db.query("SELECT COUNT(*) FROM check_ins").use { c ->
                            c.moveToFirst()
                            assertEquals(1, c.getInt(0))
                        }
                    }

                    @Test
                    fun migrateAll_fromOldestToLatest() {
                        helper.createDatabase(TEST_DB, 3).close()
                        // Opens the real database class with every migration; Room validates the result.
                        Room.databaseBuilder(
                            InstrumentationRegistry.getInstrumentation().targetContext,
                            AppDatabase::class.java,
                            TEST_DB,
                        ).addMigrations(*ALL_MIGRATIONS).build().apply {
                            openHelper.writableDatabase.close()
                        }
                    }
                }
                ```

                The first test is the specific one: data survives, the new column has the right default.
                The second one is the safety net, and it's what answers your CI question. It starts from the
                oldest schema and opens the real database class with `ALL_MIGRATIONS`. If you bump the
                version to 5 and forget to write `MIGRATION_4_5`, Room throws "A migration from 4 to 5 was
                required but not found" right there, in the test, instead of on a phone.

                Both tests are instrumented (`androidTest`), so they need an emulator. On GitHub Actions that
                means an emulator runner step, which is slowish. Alternatively, Room 2.6+ supports running
                `MigrationTestHelper` as a Robolectric test in `src/test`, which is faster. Let's decide that
                when we build the CI workflow.

                Rule of thumb to adopt now: **every `version = N` bump in `AppDatabase` comes with a
                `MIGRATION_(N-1)_N`, an entry in `ALL_MIGRATIONS`, the exported `N.json` committed, and a
                test case like the first one.** Four things, every time.
                """
            ),
            key="db-migtest",
        ),
        u(
            w(
                r"""
                Both green on the emulator. Committing. Which reminds me: when you suggest commit messages
                (and please do, I'm bad at them), use Conventional Commits style: `feat:`, `fix:`, `chore:`
                and so on, lower-case subject, no full stop at the end. I want to generate the changelog from
                them later.
                """
            ),
            key="si-commits",
        ),
        a(
            w(
                r"""
                Will do. For what you've just done I'd make it two commits, so the build change and the
                schema change can be reverted separately:

                ```text
                build: export room schemas and add migration test deps

                feat(data): add freeze_tokens to habits with migration 3 to 4

                Adds MIGRATION_3_4 and MigrationTest covering data kept across the
                migration and the full chain from schema 3.
                ```

                `build:` is a standard type in the Angular convention that Conventional Commits grew out of.
                If you use a changelog generator later (git-cliff, release-please), it'll group `feat` and
                `fix` and hide `build`/`chore`, which is what you want in store release notes.
                """
            )
        ),
        u(
            w(
                r"""
                Now the other side of it: getting the DAO into the view models. The tutorials all use Hilt
                and I'd rather not. I have a plain `AppContainer` class created in `Application.onCreate`
                and I wire everything by hand: it's twenty lines, I can read it, and every time I've used
                Hilt at work I've lost an afternoon to generated code and kapt errors. So: how do I give
                `HabitListViewModel` its repository without a DI framework, in a way that survives
                configuration changes?
                """
            ),
            key="pref-di",
        ),
        a(
            w(
                r"""
                Manual DI is a perfectly good choice for an app this size. The piece that makes it work with
                view models is a `ViewModelProvider.Factory`, and the lifecycle library has a small DSL for
                it (`viewModelFactory { initializer { ... } }`), so there's almost no boilerplate.

                ```kotlin
                // StreakwiseApp.kt
                class StreakwiseApp : Application() {
                    lateinit var container: AppContainer
                        private set

                    override fun onCreate() {
                        super.onCreate()
                        container = AppContainer(this)
                    }
                }

                // AppContainer.kt
                class AppContainer(context: Context) {
                    private val database: AppDatabase =
                        Room.databaseBuilder(context, AppDatabase::class.java, "streakwise.db")
                            .addMigrations(*ALL_MIGRATIONS)
                            .build()

                    val clock: Clock = Clock.systemDefaultZone()

                    val habitRepository: HabitRepository by lazy {
                        HabitRepository(database.habitDao(), database.checkInDao(), clock)
                    }
                }
                ```

                ```kotlin
                // HabitListViewModel.kt
                class HabitListViewModel(
                    private val repository: HabitRepository,
                ) : ViewModel() {

                    val habits: StateFlow<List<HabitWithStreak>> = repository.observeHabits()
                        .stateIn(viewModelScope, SharingStarted.WhileSubscribed(5_000), emptyList())

                    fun checkIn(habitId: Long) {
                        viewModelScope.launch { repository.checkInToday(habitId) }
                    }

                    companion object {
                        val Factory: ViewModelProvider.Factory = viewModelFactory {
                            initializer {
                                val app = this[ViewModelProvider.AndroidViewModelFactory.APPLICATION_KEY]
                                    as StreakwiseApp
                                HabitListViewModel(app.container.habitRepository)
                            }
                        }
                    }
                }
                ```

                ```kotlin
                // in the composable
                @Composable
                fun HabitListScreen(
                    viewModel: HabitListViewModel = viewModel(factory = HabitListViewModel.Factory),
                ) {
                    val habits by viewModel.habits.collectAsStateWithLifecycle()
                    // ...
                }
                ```

                Why it survives rotation: `viewModel(factory = ...)` only calls the factory when there's no
                existing instance in the `ViewModelStore`; after a configuration change it hands back the
                same one. The container lives in the `Application`, so the database and repository are
                created once per process.

                One warning: `java.time.Clock` and `LocalDate` need API 26, or core library desugaring on
                your current `minSdk = 24`. If you're using `java.time` anywhere (and for a streak app, with
                epoch days, you probably are), either enable desugaring or think about raising `minSdk`.
                Do you know what share of your likely users are on Android 7?
                """
            )
        ),
        u("No idea. Probably tiny. I'll turn on desugaring for now and look at the numbers before launch."),
        a(
            w(
                r"""
                Reasonable. Desugaring is one flag plus one dependency. Here's the full build file with it
                switched on:

                ```kotlin
                import java.util.Properties

                plugins {
                    alias(libs.plugins.android.application)
                    alias(libs.plugins.kotlin.android)
                    alias(libs.plugins.kotlin.compose)
                    alias(libs.plugins.ksp)
                    alias(libs.plugins.room)
                }

                val keystoreProperties = Properties().apply {
                    val file = rootProject.file("keystore.properties")
                    if (file.exists()) file.inputStream().use { load(it) }
                }

                fun signingValue(key: String, env: String): String? =
                    keystoreProperties.getProperty(key) ?: System.getenv(env)

                android {
                    namespace = "com.lowtide.streakwise"
                    compileSdk = 35

                    defaultConfig {
                        applicationId = "com.lowtide.streakwise"
                        minSdk = 24
                        targetSdk = 35
                        versionCode = 2
                        versionName = "0.2.0"
                        testInstrumentationRunner = "androidx.test.runner.AndroidJUnitRunner"
                    }

                    signingConfigs {
                        create("release") {
                            val storePath = signingValue("storeFile", "STREAKWISE_STORE_FILE")
                            if (storePath != null) {
                                storeFile = file(storePath)
                                storePassword = signingValue("storePassword", "STREAKWISE_STORE_PASSWORD")
                                keyAlias = signingValue("keyAlias", "STREAKWISE_KEY_ALIAS")
                                keyPassword = signingValue("keyPassword", "STREAKWISE_KEY_PASSWORD")
                            }
                        }
                    }

                    buildTypes {
                        release {
                            isMinifyEnabled = true
                            isShrinkResources = true
                            proguardFiles(
                                getDefaultProguardFile("proguard-android-optimize.txt"),
                                "proguard-rules.pro",
                            )
                            signingConfig = signingConfigs.getByName("release")
                        }
                        debug {
                            applicationIdSuffix = ".debug"
                            versionNameSuffix = "-debug"
                        }
                    }
                    compileOptions {
                        isCoreLibraryDesugaringEnabled = true
                        sourceCompatibility = JavaVersion.VERSION_17
                        targetCompatibility = JavaVersion.VERSION_17
                    }
                    kotlinOptions {
                        jvmTarget = "17"
                    }
                    buildFeatures {
                        compose = true
                        buildConfig = true
                    }
                    sourceSets {
                        getByName("androidTest").assets.srcDir("$projectDir/schemas")
                    }
                }

                room {
                    schemaDirectory("$projectDir/schemas")
                }

                dependencies {
                    coreLibraryDesugaring(libs.desugar.jdk.libs)
                    implementation(platform(libs.androidx.compose.bom))
                    implementation(libs.androidx.compose.material3)
                    implementation(libs.androidx.activity.compose)
                    implementation(libs.androidx.lifecycle.viewmodel.compose)
                    implementation(libs.androidx.lifecycle.runtime.compose)
                    implementation(libs.androidx.room.runtime)
                    implementation(libs.androidx.room.ktx)
                    ksp(libs.androidx.room.compiler)
                    testImplementation(libs.junit)
                    androidTestImplementation(libs.androidx.room.testing)
                    androidTestImplementation(libs.androidx.test.runner)
                    androidTestImplementation(libs.androidx.test.ext.junit)
                }
                ```

                `desugar_jdk_libs` is `com.android.tools:desugar_jdk_libs:2.1.2`. It costs roughly 100 to
                200 KB in the release APK after R8, depending on how much of `java.time` you touch. That's
                the real price of supporting Android 7, and one more reason to look at the numbers later.
                """
            )
        ),
        u(
            "Thanks. Mats (the small one, 14 months) has decided 5:30 is the new wake-up time so these sessions "
            "might get shorter for a while."
        ),
        a(
            "Fourteen months is peak early-riser age, sadly. Short sessions work fine: if you tell me where you "
            "left off, I'll keep each step small enough to finish before breakfast."
        ),
    ],
)

S3 = Session(
    "2026-08-11T04:35:00Z",
    [
        u(
            w(
                r"""
                Billing today. I've read about half of the Play Billing docs and a lot of Reddit threads
                saying "just use RevenueCat". For a one-person app with one subscription, is RevenueCat worth
                it, or should I talk to Play Billing directly?
                """
            )
        ),
        u(
            "And while we're on money: whenever you put a price or a cost in front of me, give it in euros. I "
            "live in Leipzig, my customers will mostly be in Germany and Austria to start with, and converting "
            "dollars in my head at 6am is not happening.",
            key="si-euros",
        ),
        a(
            w(
                r"""
                Euros from here on.

                Here's how the two compare for your case:

                | | Play Billing directly | RevenueCat |
                |---|---|---|
                | Cost | Nothing beyond Google's cut | Free up to about €2,300 monthly tracked revenue, then 1% |
                | Server needed | For real validation, yes (or accept client-side checks) | No, they validate for you |
                | Code | ~300 lines: connect, query, launch flow, acknowledge, restore | ~50 lines |
                | Dependencies | billing-ktx only | Their SDK plus billing |
                | iOS later | Irrelevant | Shared entitlements |
                | Data | Stays between you and Google | Purchase data goes to a third party |

                My honest read: RevenueCat's strongest arguments are server-side receipt validation without
                running a server, and cross-platform entitlements. You have no backend and no iOS plans, and
                a habit tracker at €2 to €4 a month isn't a big fraud target. A determined person can patch
                any client-side check anyway, and they were never going to pay.

                So I'd go direct, with a clean `BillingRepository` behind an interface, so that swapping in
                RevenueCat later (if you ever add iOS or a backend) touches one class.
                """
            )
        ),
        u(
            w(
                r"""
                Agreed on going direct. Small request about format though: I read your answers on my phone,
                mostly on the tram to work, and that table was a horizontal-scrolling mess. For comparisons,
                short bullet lists work much better for me than wide tables. Tables with two narrow columns
                are fine.
                """
            ),
            key="pref-bullets",
        ),
        a(
            w(
                r"""
                Makes sense. Tram-friendly from now on. The same comparison, as it should have been:

                **Play Billing directly**
                - No extra cost
                - About 300 lines of your own code
                - Validation on the device (fine for your risk level)
                - Purchase data stays with you and Google

                **RevenueCat**
                - Free until roughly €2,300 a month in revenue, then 1%
                - About 50 lines of code
                - Server-side validation included
                - Worth it with iOS or a backend, which you don't have

                Before I write the billing code: what are you planning to charge, and do you want a free
                trial?
                """
            )
        ),
        u(
            "€2.49 a month or €19.99 a year, and a 7-day free trial on both. Paulina's paywall mockup has those "
            "numbers already.",
            key="s3-price",
        ),
        a(
            w(
                r"""
                Those are sensible numbers for the category. Most habit trackers sit between €1.99 and €4.99
                monthly, and a yearly plan at about eight months' price is the usual anchor.

                **Play Console setup** (Monetise → Products → Subscriptions):

                - One subscription, product ID `streakwise_pro`. Product IDs can never be reused, even after
                  deletion, so pick this carefully.
                - Base plan `monthly`: auto-renewing, 1 month, €2.49.
                - Base plan `yearly`: auto-renewing, 1 year, €19.99.
                - On each base plan an offer `free-trial` with one free phase of 7 days, eligibility "New
                  customer acquisition: never had this subscription". Play then handles "one trial per
                  Google account" for you.

                Set the price in euros for Germany and let Play convert the rest. You can adjust individual
                countries later.

                **The repository.** Billing Library 8, coroutine extensions. The interface is what the rest
                of the app sees:

                ```kotlin
                // billing/ProAccess.kt
                interface ProAccess {
                    val isPro: StateFlow<Boolean>
                    val offers: StateFlow<List<ProOffer>>
                    suspend fun refresh()
                    fun launchPurchase(activity: Activity, offer: ProOffer)
                }

                data class ProOffer(
                    val basePlanId: String,       // "monthly" or "yearly"
                    val offerToken: String,
                    val formattedPrice: String,   // "2,49 €", already localised by Play
                    val hasFreeTrial: Boolean,
                )
                ```

                ```kotlin
                // billing/PlayBillingProAccess.kt
                class PlayBillingProAccess(
                    context: Context,
                    private val scope: CoroutineScope,
                ) : ProAccess, PurchasesUpdatedListener {

                    private val client = BillingClient.newBuilder(context)
                        .setListener(this)
                        .enablePendingPurchases(
                            PendingPurchasesParams.newBuilder().enableOneTimeProducts().build()
                        )
                        .build()

                    private val _isPro = MutableStateFlow(false)
                    override val isPro: StateFlow<Boolean> = _isPro

                    private val _offers = MutableStateFlow<List<ProOffer>>(emptyList())
                    override val offers: StateFlow<List<ProOffer>> = _offers

                    private val productDetails = MutableStateFlow<ProductDetails?>(null)

                    override suspend fun refresh() {
                        if (!connect()) return
                        loadOffers()
                        val result = client.queryPurchasesAsync(
                            QueryPurchasesParams.newBuilder()
                                .setProductType(BillingClient.ProductType.SUBS).build()
                        )
                        handle(result.purchasesList)
                    }

                    private suspend fun connect(): Boolean = suspendCancellableCoroutine { cont ->
                        if (client.isReady) { cont.resume(true); return@suspendCancellableCoroutine }
                        client.startConnection(object : BillingClientStateListener {
                            override fun onBillingSetupFinished(result: BillingResult) {
                                if (cont.isActive) cont.resume(result.responseCode == BillingResponseCode.OK)
                            }
                            override fun onBillingServiceDisconnected() { /* reconnect on next refresh */ }
                        })
                    }

                    private suspend fun loadOffers() {
                        val params = QueryProductDetailsParams.newBuilder().setProductList(
                            listOf(
                                QueryProductDetailsParams.Product.newBuilder()
                                    .setProductId(PRODUCT_ID)
                                    .setProductType(BillingClient.ProductType.SUBS)
                                    .build()
                            )
                        ).build()
                        val details = client.queryProductDetails(params).productDetailsList
                            ?.firstOrNull() ?: return
                        productDetails.value = details
                        _offers.value = details.subscriptionOfferDetails.orEmpty()
                            .groupBy { it.basePlanId }
                            .map { (basePlan, offers) ->
                                // prefer the trial offer if the user is eligible; Play only returns it then
                                val best = offers.firstOrNull { it.offerId != null } ?: offers.first()
                                ProOffer(
                                    basePlanId = basePlan,
                                    offerToken = best.offerToken,
                                    formattedPrice = best.pricingPhases.pricingPhaseList
                                        .last().formattedPrice,
                                    hasFreeTrial = best.pricingPhases.pricingPhaseList
                                        .any { it.priceAmountMicros == 0L },
                                )
                            }
                    }

                    override fun launchPurchase(activity: Activity, offer: ProOffer) {
                        val details = productDetails.value ?: return
                        val params = BillingFlowParams.newBuilder().setProductDetailsParamsList(
                            listOf(
                                BillingFlowParams.ProductDetailsParams.newBuilder()
                                    .setProductDetails(details)
                                    .setOfferToken(offer.offerToken)
                                    .build()
                            )
                        ).build()
                        client.launchBillingFlow(activity, params)
                    }

                    override fun onPurchasesUpdated(result: BillingResult, purchases: List<Purchase>?) {
                        if (result.responseCode == BillingResponseCode.OK && purchases != null) {
                            scope.launch { handle(purchases) }
                        }
                    }

                    private suspend fun handle(purchases: List<Purchase>) {
                        val active = purchases.filter {
                            PRODUCT_ID in it.products &&
                                it.purchaseState == Purchase.PurchaseState.PURCHASED
                        }
                        active.filterNot { it.isAcknowledged }.forEach { purchase ->
                            client.acknowledgePurchase(
                                AcknowledgePurchaseParams.newBuilder()
                                    .setPurchaseToken(purchase.purchaseToken).build()
                            )
                        }
                        _isPro.value = active.isNotEmpty()
                    }

                    companion object {
                        const val PRODUCT_ID = "streakwise_pro"
                    }
                }
                ```

                It goes into `AppContainer` like everything else, with an application-wide scope:

                ```kotlin
                val appScope = CoroutineScope(SupervisorJob() + Dispatchers.Default)
                val proAccess: ProAccess by lazy { PlayBillingProAccess(context, appScope) }
                ```

                Call `proAccess.refresh()` from your main activity's `onResume`, so a subscription that
                lapsed or was bought on another device is picked up.

                **Dependency cost:** `com.android.billingclient:billing-ktx:8.0.0` adds about 350 KB to the
                release APK after R8, most of it the billing client itself. Unavoidable if you want to sell
                anything.
                """
            ),
        ),
        u(
            w(
                r"""
                Why acknowledge? What happens if I forget? I ask because the "acknowledge" call feels like
                the kind of thing I'd delete while refactoring because it looks like it does nothing.
                """
            )
        ),
        a(
            w(
                r"""
                It looks like it does nothing, and it's the one line you must never delete. If a purchase
                isn't acknowledged within **three days**, Google automatically refunds it and revokes the
                entitlement. The user gets their money back, you get nothing, and nobody tells you why. It
                exists so that an app which crashed between payment and unlocking the feature doesn't keep
                money for something it never delivered.

                Things that make it safe:

                - Acknowledge in `handle()`, which runs both on the purchase callback and on every
                  `refresh()`. If the app dies right after payment, the next start acknowledges it, well
                  within three days.
                - A comment on the line: `// Unacknowledged purchases are refunded after 3 days.`
                - A check in the Play Console: *Order management* shows unacknowledged orders. During the
                  closed test, have a look there once.

                For testing: add your Google account as a licence tester (*Setup → Licence testing*).
                Testers get test cards ("always approves", "always declines", "slow card"), and renewal
                periods are compressed: a monthly subscription renews every 5 minutes and a trial lasts
                3 minutes, so you can watch a whole lifecycle over a coffee. The build has to be uploaded to
                a testing track and installed from the Play Store at least once, though. Billing doesn't
                work with a random sideloaded debug build, because the package isn't signed the way Play
                expects.
                """
            )
        ),
        u(
            w(
                r"""
                Update from the weekend: 0.3.0 is on the internal track, I installed it from the Play
                Store link, and bought Pro with the "always approves" test card. Watched it renew three
                times in fifteen minutes, very satisfying. But the 7-day trial never showed up for me,
                the button just said the full price. Is my offer broken?
                """
            )
        ),
        a(
            w(
                r"""
                Probably not broken. Two things hide a trial, and both are about eligibility, not
                configuration:

                - **The offer's eligibility rule.** "New customer acquisition: never had this subscription"
                  means the trial is only returned by `queryProductDetails` for Google accounts that have
                  never had `streakwise_pro`. If you bought it once on that account, even with a test card,
                  even if it's cancelled, you're no longer a new customer and Play simply doesn't return the
                  offer. The code then falls back to the base plan, which is exactly what you saw.
                - **Caching.** Play Store caches product details. After editing an offer, it can take a
                  while (sometimes hours) before devices see it. Clearing the Play Store app's cache speeds
                  that up.

                How to test the trial path properly:

                - Use a second Google account that's also a licence tester and has never bought the
                  subscription. Many developers keep a dedicated "test buyer" account for this.
                - Check the order in *Order management*: a trial shows as a €0.00 order followed by renewals.
                - With licence testing, the trial phase lasts 3 minutes, then it converts to a paid (test)
                  renewal.

                Your logic (`offers.firstOrNull { it.offerId != null } ?: offers.first()`) is the right
                shape: the base plan itself has no `offerId`, offers do, so if an offer comes back it wins.
                """
            )
        ),
        u(
            "Five-minute months. I'll have aged a year by breakfast. OK, I need to get ready for work, we've "
            "got a sprint review and I'm demoing the new claims export that I wrote in about this amount of "
            "thinking time."
        ),
        a(
            "Good luck with the demo. For next time: upload a build to internal testing and add yourself as a "
            "licence tester, so we can try a real purchase flow."
        ),
    ],
)

S4 = Session(
    "2026-08-17T04:50:00Z",
    [
        u(
            w(
                r"""
                Right, CI. I want GitHub Actions to build the signed release bundle whenever I push a tag
                like `v0.3.0`, run the unit tests first, and keep the AAB as an artifact. Repo is private,
                on GitHub, `lowtide/streakwise`. I've never put a keystore into GitHub secrets. How does
                that work, since secrets are text?
                """
            )
        ),
        u(
            "Also, a standing request: any time you propose adding a new dependency, say how many KB it adds to "
            "the release APK. The whole app is under 6 MB right now and I'm a bit proud of that.",
            key="si-apksize",
        ),
        a(
            w(
                r"""
                Got it: every new dependency comes with its APK cost.

                Secrets are text, so the keystore goes in as base64 and the workflow decodes it back into a
                file before the Gradle build. On your machine:

                ```bash
                base64 -w0 ~/keys/streakwise-upload.jks > keystore.b64   # on macOS: base64 -i ... -o ...
                ```

                Then in the repository: *Settings → Secrets and variables → Actions → New repository
                secret*, four of them:

                - `UPLOAD_KEYSTORE_BASE64`: contents of `keystore.b64`
                - `UPLOAD_STORE_PASSWORD`
                - `UPLOAD_KEY_ALIAS` (`upload`)
                - `UPLOAD_KEY_PASSWORD`

                Delete `keystore.b64` afterwards. Your build file already falls back to the
                `STREAKWISE_*` environment variables when there's no `keystore.properties`, so the workflow
                only needs to map secrets to those names.

                Here's `.github/workflows/release.yml`:

                ```yaml
                name: release

                on:
                  push:
                    tags:
                      - "v*"
                  workflow_dispatch:

                permissions:
                  contents: read

                jobs:
                  bundle:
                    runs-on: ubuntu-latest
                    timeout-minutes: 30
                    steps:
                      - uses: actions/checkout@v4

                      - uses: actions/setup-java@v4
                        with:
                          distribution: temurin
                          java-version: "17"

                      - name: Unit tests
                        run: ./gradlew --no-daemon testReleaseUnitTest

                      - name: Decode upload keystore
                        env:
                          UPLOAD_KEYSTORE_BASE64: ${{ secrets.UPLOAD_KEYSTORE_BASE64 }}
                        run: |
                          echo "$UPLOAD_KEYSTORE_BASE64" | base64 --decode > "$RUNNER_TEMP/upload.jks"
                          echo "STREAKWISE_STORE_FILE=$RUNNER_TEMP/upload.jks" >> "$GITHUB_ENV"

                      - name: Build signed bundle
                        env:
                          STREAKWISE_STORE_PASSWORD: ${{ secrets.UPLOAD_STORE_PASSWORD }}
                          STREAKWISE_KEY_ALIAS: ${{ secrets.UPLOAD_KEY_ALIAS }}
                          STREAKWISE_KEY_PASSWORD: ${{ secrets.UPLOAD_KEY_PASSWORD }}
                        run: ./gradlew --no-daemon :app:bundleRelease

                      - name: Keep bundle and mapping
                        uses: actions/upload-artifact@v4
                        with:
                          name: streakwise-${{ github.ref_name }}
                          path: |
                            app/build/outputs/bundle/release/app-release.aab
                            app/build/outputs/mapping/release/mapping.txt
                          retention-days: 90

                      - name: Remove keystore
                        if: always()
                        run: rm -f "$RUNNER_TEMP/upload.jks"
                ```

                Notes:

                - The keystore goes to `$RUNNER_TEMP`, outside the checkout, so no later step can
                  accidentally pick it up or upload it. Hosted runners are thrown away after the job anyway;
                  the last step is belt and braces.
                - I keep `mapping.txt` next to the bundle. It's what turns obfuscated R8 stack traces back
                  into readable ones. Play can deobfuscate crashes itself if the mapping goes up with the
                  bundle, but keeping your own copy per tag costs nothing.
                - `workflow_dispatch` lets you run it by hand from the Actions tab, useful while we tune it.
                - GitHub masks secret values in logs, but don't `cat` anything derived from them.

                The instrumented migration tests aren't in here yet. They need an emulator. Let's see how
                long this takes first.

                No new dependencies in this one, so nothing to add to the APK.
                """
            ),
            key="ci-workflow",
        ),
        u(
            w(
                r"""
                It works! Tagged v0.3.0, green, AAB in the artifacts. But it's slow: the run took about
                14 minutes, most of it in "Build signed bundle", which spends ages downloading Gradle and
                dependencies. On my laptop a release build is 2 minutes.
                """
            ),
            key="ku-build-old",
        ),
        a(
            w(
                r"""
                Fourteen minutes is what an uncached Gradle build on a fresh runner looks like: the Gradle
                distribution, every dependency in your catalog, the Kotlin compiler and the Compose compiler
                all come down from the internet, and you run Gradle twice (tests, then bundle), so a lot of
                configuration happens twice.

                Three changes, in order of effect:

                1. **Cache Gradle** with `gradle/actions/setup-gradle`. It caches the wrapper distribution,
                   the dependency cache and the build cache between runs, keyed on your build files. This is
                   the big one.
                2. **One Gradle invocation** instead of two: `./gradlew testReleaseUnitTest :app:bundleRelease`.
                   Configuration happens once, and tasks shared by both (compiling Kotlin) aren't repeated.
                3. **Build cache and configuration cache** in `gradle.properties`, which also makes your laptop
                   builds faster.

                The whole workflow with those changes:

                ```yaml
                name: release

                on:
                  push:
                    tags:
                      - "v*"
                  workflow_dispatch:

                permissions:
                  contents: read

                jobs:
                  bundle:
                    runs-on: ubuntu-latest
                    timeout-minutes: 30
                    steps:
                      - uses: actions/checkout@v4

                      - uses: actions/setup-java@v4
                        with:
                          distribution: temurin
                          java-version: "17"

                      - uses: gradle/actions/setup-gradle@v4
                        with:
                          cache-read-only: false

                      - name: Decode upload keystore
                        env:
                          UPLOAD_KEYSTORE_BASE64: ${{ secrets.UPLOAD_KEYSTORE_BASE64 }}
                        run: |
                          echo "$UPLOAD_KEYSTORE_BASE64" | base64 --decode > "$RUNNER_TEMP/upload.jks"
                          echo "STREAKWISE_STORE_FILE=$RUNNER_TEMP/upload.jks" >> "$GITHUB_ENV"

                      - name: Test and build signed bundle
                        env:
                          STREAKWISE_STORE_PASSWORD: ${{ secrets.UPLOAD_STORE_PASSWORD }}
                          STREAKWISE_KEY_ALIAS: ${{ secrets.UPLOAD_KEY_ALIAS }}
                          STREAKWISE_KEY_PASSWORD: ${{ secrets.UPLOAD_KEY_PASSWORD }}
                        run: ./gradlew testReleaseUnitTest :app:bundleRelease

                      - name: Keep bundle and mapping
                        uses: actions/upload-artifact@v4
                        with:
                          name: streakwise-${{ github.ref_name }}
                          path: |
                            app/build/outputs/bundle/release/app-release.aab
                            app/build/outputs/mapping/release/mapping.txt
                          retention-days: 90

                      - name: Remove keystore
                        if: always()
                        run: rm -f "$RUNNER_TEMP/upload.jks"
                ```

                And the whole `gradle.properties`. I've kept what Android Studio generated and added the
                last three lines:

                ```properties
                org.gradle.jvmargs=-Xmx4g -Dfile.encoding=UTF-8
                android.useAndroidX=true
                kotlin.code.style=official
                android.nonTransitiveRClass=true
                org.gradle.caching=true
                org.gradle.configuration-cache=true
                org.gradle.parallel=true
                ```

                `cache-read-only: false` matters. By default setup-gradle only *writes* the cache from the
                default branch, and tag builds would only read it. Since all your CI runs are tag builds,
                you want them to write too. The first run after this change will still be slow (it fills the
                cache); judge it on the second.
                """
            ),
        ),
        u(
            w(
                r"""
                Will try on the next tag. Next thing: uploading to Play. Everyone online says "use
                Fastlane". I'm not having Ruby in my toolchain: no Gemfile, no bundler, no "which Ruby
                version does this need" on a Saturday. Whatever we do for uploading, store metadata or
                screenshots has to be Gradle or a plain GitHub Action.
                """
            ),
            key="pref-noruby",
        ),
        a(
            w(
                r"""
                Fair, and you lose nothing. Two Ruby-free options:

                **Gradle Play Publisher** (`com.github.triplet.play`)
                - A Gradle plugin: `./gradlew publishReleaseBundle` uploads to a track
                - Also handles listing text, screenshots and release notes from files in
                  `app/src/main/play/`
                - Can promote between tracks (`promoteReleaseArtifact`)
                - Build-time only, so it adds 0 KB to the APK

                **r0adkll/upload-google-play** (GitHub Action)
                - Uploads an AAB you've already built to a track
                - Nothing in your build files
                - Bundle and release notes only, no listing or screenshots

                If you want store text and screenshots versioned in the repo, Gradle Play Publisher is the
                better fit. Either way you need a **service account**: in Google Cloud, create a project and
                a service account, download its JSON key, then in the Play Console (*Users and permissions
                → Invite new users*) invite the service account's email with permission to release to
                testing tracks only. Not production, at least to begin with: I'd keep the production button
                a human decision.

                I'd set this up after the closed test is running. For the first few uploads, doing it by
                hand in the console teaches you what each screen means.
                """
            )
        ),
        u(
            w(
                r"""
                Agreed, manual for now. One correction from last week, by the way: the trial is 14 days,
                not 7. I misread Paulina's mockup: she'd written "7" on the reminder screen and "14" on the
                paywall and I mixed them up. I've fixed the offer in the console already.
                """
            ),
            key="ku-trial-new",
        ),
        a(
            w(
                r"""
                Noted: 14-day free trial on both base plans. Nothing in the code needs to change, because
                `hasFreeTrial` and the prices come from Play at runtime. Only check the paywall copy: if the
                string says "7 days free" anywhere, better to build it from the offer's pricing phase
                (`billingPeriod` is `P14D` for the free phase) than hard-code the number, so the text can't
                disagree with what Play actually charges.

                ```kotlin
                fun ProductDetails.SubscriptionOfferDetails.trialDays(): Int? =
                    pricingPhases.pricingPhaseList
                        .firstOrNull { it.priceAmountMicros == 0L }
                        ?.billingPeriod
                        ?.let { java.time.Period.parse(it).days.takeIf { d -> d > 0 } }
                ```

                `Period.parse` also accepts the week form: Play may report a 14-day trial as `P14D` or as
                `P2W` depending on how it was set up, and `P2W` parses to 14 days, so this works either way.
"""
            )
        ),
        u(
            "Small thing: Android Studio never committed gradle-wrapper.jar because I had *.jar in .gitignore "
            "from an old project. The CI run only worked because I'd fixed that by accident the night before. "
            "Should the jar be in git?"
        ),
        a(
            w(
                r"""
                Yes, the wrapper jar belongs in git, together with `gradlew`, `gradlew.bat` and
                `gradle/wrapper/gradle-wrapper.properties`. It's the small bootstrap that downloads the Gradle
                version named in the properties file, so CI and every machine use exactly the same Gradle.
                Without it, `./gradlew` fails on a fresh checkout.

                Replace the blanket rule with an exception. The whole `.gitignore` as I'd have it now:

                ```gitignore
                # build output
                .gradle/
                build/
                /local.properties
                /captures
                .externalNativeBuild
                .cxx

                # IDE
                .idea/
                *.iml
                .DS_Store

                # signing
                keystore.properties
                *.jks
                *.keystore

                # binaries, but keep the Gradle wrapper
                *.jar
                !gradle/wrapper/gradle-wrapper.jar
                ```

                Since a committed jar is a binary that runs on your machine and in CI, it's worth checking
                that it's the genuine one. Since `gradle/actions/setup-gradle@v4`, wrapper validation
                happens automatically inside that action: it compares the jar's checksum with the published
                ones and fails the build if it doesn't match. So once the caching change is in, you're
                covered without an extra step.
                """
            )
        ),
        u("On-call week at work starting today so I might go quiet. Jonas has the kids this weekend though."),
        a(
            "Hope it's a quiet rotation. When you're back: the next tagged build will tell us what the cache "
            "buys us, and then the closed test."
        ),
    ],
)

S5 = Session(
    "2026-08-24T04:45:00Z",
    [
        u(
            w(
                r"""
                On-call survived: two pages, both at 3am, both the same flaky batch job. Now the scary one:
                the Play Console says that before I can apply for production I need a closed test with "at
                least 12 testers who have been opted in for the last 14 days continuously". Is that real?
                I was planning on just pushing to production on the 15th.
                """
            )
        ),
        a(
            w(
                r"""
                It's real, and it's the reason I asked about your account type on day one. Personal developer
                accounts created after 13 November 2023 have to do this before the "Production" track
                unlocks:

                - Run a **closed test** (not internal testing, which doesn't count).
                - Have **at least 12 testers opted in**, continuously, for **at least 14 days**. "Opted in"
                  means they followed the opt-in link and joined, not just that their email is on the list.
                  If someone leaves on day 10, the 14 days for them start over.
                - Then **apply for production access** in the dashboard: a questionnaire about how you
                  recruited testers, what feedback you got and what you changed. Google reviews that,
                  typically within a few days, and officially up to a week or so.
                - After that, your first production release goes through normal app review, which for a
                  new app can take another few days.

                Your calendar, if the closed test starts this Wednesday:

                - 2026-08-26: closed test live, testers opting in over a day or two
                - 2026-09-09: 14 days complete, at the earliest, if everyone opted in on day one
                - 2026-09-10: apply for production access
                - mid-September: approval, then the first production review

                So the 15th only works if everything goes perfectly and Google is fast. I wouldn't plan a
                launch on a date that depends on a review queue you can't see.

                How many people have you got who'd install it and actually keep it installed for two weeks?
                """
            )
        ),
        u(
            w(
                r"""
                My sister Ruth is in: she uses a habit app already, has a Pixel 7 and will tell me exactly
                what's wrong with mine, which is the point. Beyond her I'm going to ask the parents' WhatsApp
                group from Elsie's Kita, there are about 20 families in it and a few people there owe me for
                fixing their printers.
                """
            ),
            key="mt-tester-ruth",
        ),
        a(
            w(
                r"""
                Ruth is the ideal first tester: an existing habit-app user with opinions. The Kita group is
                a good pool too. A few practical points so the 14 days don't reset:

                - **Recruit 15 to 18, not 12.** Someone will leave, switch phones or uninstall, and you don't
                  want the count to drop to 11 on day 13.
                - **Use a Google Group as the tester list** rather than individual emails. In the closed
                  track's *Testers* tab you can add a Google Group (e.g.
                  `streakwise-testers@googlegroups.com`); people join the group, then open the opt-in link.
                  Adding new people later doesn't require touching the console.
                - **They need a Google account on the phone**, and the Play Store app must be signed into
                  that same account, or the opt-in link leads to "app not available". That's the most common
                  support question you'll get in the WhatsApp group.
                - **Send the two links together, in order**: first the web opt-in link
                  (`https://play.google.com/apps/testing/com.lowtide.streakwise`), then the Play Store link.
                  Installing without opting in doesn't count.
                - **Ask for feedback explicitly.** The production questionnaire asks what testers told you
                  and what you changed. "Nobody said anything" is a weak answer.

                Want a short message in German for the WhatsApp group?
                """
            )
        ),
        u(
            "Google Group created. Quick privacy question before I post the link in the Kita chat: can the members "
            "of the group see each other's email addresses? Some of the parents are a bit touchy about that."
        ),
        a(
            w(
                r"""
                They can, unless you change it, so it's worth two minutes in the group settings before you
                share the link. In Google Groups, under *Group settings*:

                - **Who can see members**: set to "Group owners" (or "Group managers"). Then members can't
                  list each other.
                - **Who can view conversations**: "Group owners". You're not using the group for email, so
                  nobody needs to read anything in it.
                - **Who can post**: "Group owners", so a reply-all storm can't happen.
                - **Who can join the group**: "Anyone on the web can ask" if you want to approve people, or
                  "Anyone can join" to keep it frictionless. For parents you know, "anyone can join" is fine;
                  you can remove people later.

                On the Play side, testers never see each other either: the opt-in page only shows the app.
                And the Play Console shows you the *number* of opted-in testers, not who they are. You'll
                see the count go up in *Testing → Closed testing → Testers* over the next day or two.

                In the WhatsApp message it's worth one sentence: "Nobody sees your email address except me."
                That answers the question before someone asks it in the group.
                """
            )
        ),
        u(
            w(
                r"""
                I'll write the WhatsApp message myself, the Kita parents would know instantly it wasn't me.
                But you're right about the date. Decision: public launch moves to 2026-09-29. That gives the
                closed test a week of slack and it's the day after Jonas's birthday weekend, so I'll be
                around for it.
                """
            ),
            key="ku-launch-new",
        ),
        a(
            w(
                r"""
                2026-09-29 it is. That's a calm schedule:

                - 2026-08-26: closed test live (version 0.4.0)
                - 2026-08-26 to 2026-08-28: testers opt in
                - 2026-09-11: 14 days complete for everyone who joined by the 28th
                - 2026-09-11: apply for production access
                - 2026-09-18 (approx.): production access granted
                - 2026-09-22: submit 1.0.0 to production, with the rollout held back
                - 2026-09-29: start the staged rollout, launch

                Submitting the production release a week before launch and only starting the rollout on the
                29th means that app review can't push your launch day around. Once the release is approved,
                you choose when it goes out. In the console that's "Managed publishing" (*Publishing
                overview → Managed publishing*), which holds approved changes until you press "Publish".

                Meanwhile, during the closed test, ship updates weekly or so. It gives you something to say
                in the questionnaire ("testers reported X, fixed in 0.4.2") and it exercises your release
                process before it matters.
                """
            )
        ),
        u(
            'About the "What\'s new" text for each of those updates: Play shows it as plain text, so no markdown '
            "at all (I saw someone's listing with literal asterisks in it), keep it under 400 characters, and "
            'write it for users, not developers. No "refactored the repository layer".',
            key="si-notes",
        ),
        a(
            w(
                r"""
                Plain text, under 400 characters, written for the people using the app. For the first
                closed-test build, something like:

                ```text
                Welcome to the Streakwise test!

                - Track daily habits and keep your streaks
                - Reminders at the time you choose
                - Pro: streak freezes protect a streak when life gets in the way

                Found a bug or something confusing? Use "Send feedback" in Settings. Every message gets read.
                ```

                That's about 260 characters. Hyphens at the start of a line are fine, since they're plain
                text and read as a list on the store page. Play allows up to 500 characters per language,
                so your 400 leaves headroom for the German version, which always comes out longer.

                For the German text: do you want me to draft it, or would you rather write it yourself, like
                the WhatsApp message?
                """
            )
        ),
        u(
            w(
                r"""
                Draft it and I'll fix the tone. Second tester confirmed, by the way: Matthias from my team
                at work, who has a Samsung Galaxy S10 with an Android version he refuses to update, which is
                actually useful. He asked whether testers have to actively use the app or just keep it
                installed. What do I tell him?
                """
            ),
            key="mt-tester-matthias",
        ),
        a(
            w(
                r"""
                An S10 with an old Android is genuinely useful: that's the device class where reminders and
                background work go wrong.

                German draft (about 290 characters):

                ```text
                Willkommen beim Streakwise-Test!

                - Tägliche Gewohnheiten abhaken und Serien halten
                - Erinnerungen zu deiner Wunschzeit
                - Pro: Serien-Freezes retten deine Serie, wenn mal etwas dazwischenkommt

                Fehler gefunden oder etwas unklar? Schreib uns über "Feedback senden" in den Einstellungen.
                ```

                For Matthias: officially, the rule is about being opted in for 14 days, not about usage.
                But Google has said the point is "meaningful testing", and the production questionnaire asks
                about engagement and feedback. Accounts whose testers installed and never opened the app do
                get rejected, so the honest answer is: **use it a few times a week, and tell me anything
                odd**. Matthias probably knows what "tell me anything odd" means better than most.

                To make feedback easy, add a "Send feedback" row in Settings that opens the mail app with
                the version and device prefilled:

                ```kotlin
                fun feedbackIntent(context: Context): Intent {
                    val body = buildString {
                        appendLine()
                        appendLine()
                        appendLine("---")
                        appendLine("Streakwise ${BuildConfig.VERSION_NAME} (${BuildConfig.VERSION_CODE})")
                        appendLine("${Build.MANUFACTURER} ${Build.MODEL}, Android ${Build.VERSION.RELEASE}")
                    }
                    return Intent(Intent.ACTION_SENDTO, Uri.parse("mailto:")).apply {
                        putExtra(Intent.EXTRA_EMAIL, arrayOf("hello@lowtide.app"))
                        putExtra(Intent.EXTRA_SUBJECT, "Streakwise feedback")
                        putExtra(Intent.EXTRA_TEXT, body)
                    }
                }
                ```

                The device line will save you a round trip of "which phone are you on?" on every report.
                """
            )
        ),
        u(
            "Elsie starts Kita properly on 1 September, with the settling-in weeks before that, so mornings are "
            "about to get chaotic. If I disappear for a few days that's why."
        ),
        a(
            "Settling-in weeks are hard work for everyone, parents included. The closed test runs without you, "
            "so a few quiet days won't cost anything. Good luck to Elsie."
        ),
    ],
)

S6 = Session(
    "2026-08-31T05:10:00Z",
    [
        u(
            w(
                r"""
                Closed test is live since Wednesday, 14 testers opted in. Our neighbour Agnieszka joined
                yesterday. She's a nurse on night shifts, so she's the perfect test for reminders at odd
                hours. That's 15.

                Today: reminders. Right now there's a "Remind me at" time per habit in the UI but nothing
                actually fires. I want one notification a day at the user's chosen time listing the habits
                not done yet. What's the right tool on modern Android? WorkManager? AlarmManager?
                """
            ),
            key="mt-tester-agnieszka",
        ),
        a(
            w(
                r"""
                Fifteen with a night-shift nurse in the mix: good coverage.

                For reminders the choice is really about precision:

                - **WorkManager** (periodic or one-off with an initial delay): survives reboots, respects
                  Doze, but can be deferred, sometimes by 10 to 15 minutes or more when the phone is idle. No
                  special permission.
                - **AlarmManager exact alarms** (`setExactAndAllowWhileIdle`): fires on the minute, even in
                  Doze, but on Android 12+ needs the `SCHEDULE_EXACT_ALARM` permission, which on Android 14
                  is **not granted by default** to new installs. The user has to allow it in settings.
                - **AlarmManager inexact** (`setAndAllowWhileIdle`): no permission, fires within a window,
                  usually minutes.

                For "remind me at 20:00 to read", a few minutes late is fine; nobody notices 20:04. So I'd
                start with WorkManager: a one-off request scheduled for the next occurrence, which schedules
                its successor when it runs. That beats `PeriodicWorkRequest` here, because periodic work
                drifts and can't be pinned to a clock time.

                ```kotlin
                // reminders/ReminderWorker.kt
                package com.lowtide.streakwise.reminders

                class ReminderWorker(
                    context: Context,
                    params: WorkerParameters,
                ) : CoroutineWorker(context, params) {

                    override suspend fun doWork(): Result {
                        val container = (applicationContext as StreakwiseApp).container
                        val open = container.habitRepository.habitsOpenToday()
                        if (open.isNotEmpty()) {
                            ReminderNotifications.show(applicationContext, open)
                        }
                        ReminderScheduler.scheduleNext(
                            applicationContext,
                            container.settings.reminderTime.first(),
                        )
                        return Result.success()
                    }
                }
                ```

                ```kotlin
                // reminders/ReminderScheduler.kt
                package com.lowtide.streakwise.reminders

                object ReminderScheduler {
                    const val WORK_NAME = "streakwise-daily-reminder"

                    fun scheduleNext(context: Context, at: LocalTime, now: ZonedDateTime = ZonedDateTime.now()) {
                        var next = now.with(at).withSecond(0).withNano(0)
                        if (!next.isAfter(now)) next = next.plusDays(1)
                        val delay = Duration.between(now, next)

                        val request = OneTimeWorkRequestBuilder<ReminderWorker>()
                            .setInitialDelay(delay.toMillis(), TimeUnit.MILLISECONDS)
                            .build()

                        WorkManager.getInstance(context).enqueueUniqueWork(
                            WORK_NAME,
                            ExistingWorkPolicy.REPLACE,
                            request,
                        )
                    }

                    fun cancel(context: Context) {
                        WorkManager.getInstance(context).cancelUniqueWork(WORK_NAME)
                    }
                }
                ```

                The unique name with `REPLACE` means changing the time in settings just re-enqueues, so you
                can never end up with two reminder chains running side by side.

                The notification side needs a channel (created once, at startup) and on Android 13+ the
                `POST_NOTIFICATIONS` runtime permission, asked at the moment the user turns reminders on,
                not at first launch:

                ```kotlin
                object ReminderNotifications {
                    private const val CHANNEL_ID = "reminders"

                    fun createChannel(context: Context) {
                        val channel = NotificationChannel(
                            CHANNEL_ID,
                            context.getString(R.string.channel_reminders),
                            NotificationManager.IMPORTANCE_DEFAULT,
                        )
                        context.getSystemService(NotificationManager::class.java)
                            .createNotificationChannel(channel)
                    }

                    fun show(context: Context, open: List<HabitEntity>) {
                        if (ContextCompat.checkSelfPermission(
                                context, Manifest.permission.POST_NOTIFICATIONS,
                            ) != PackageManager.PERMISSION_GRANTED
                        ) return
                        val text = open.joinToString(", ") { it.name }
                        val notification = NotificationCompat.Builder(context, CHANNEL_ID)
                            .setSmallIcon(R.drawable.ic_notification)
                            .setContentTitle(context.getString(R.string.reminder_title, open.size))
                            .setContentText(text)
                            .setContentIntent(openAppIntent(context))
                            .setAutoCancel(true)
                            .build()
                        NotificationManagerCompat.from(context).notify(1, notification)
                    }
                }
                ```

                **Dependency cost:** `androidx.work:work-runtime-ktx:2.10.0` adds roughly 250 to 300 KB to
                the release APK after R8. It pulls in its own small Room database for the job queue, but
                you already ship Room, so the shared part isn't counted twice.
                """
            ),
        ),
        u(
            w(
                r"""
                Added, works on my Pixel, notification at 20:00 on the dot (well, 20:02). Separate question.
                You asked weeks ago about Android 7 users. I looked at the distribution numbers in Android
                Studio and Paulina pointed out that half her icon work is adaptive icons, which need 8.0
                anyway. So: we're raising minSdk to 26. API 24 and 25 together are around 2% of devices, and
                I can drop desugaring and all the "if SDK >= O" branches around notification channels.
                """
            ),
            key="ku-minsdk-new",
        ),
        a(
            w(
                r"""
                Good call. At 26 the notification channel code no longer needs a version check, `java.time`
                is native, and you drop the desugaring library (100 to 200 KB back). The whole
                `app/build.gradle.kts`:

                ```kotlin
                import java.util.Properties

                plugins {
                    alias(libs.plugins.android.application)
                    alias(libs.plugins.kotlin.android)
                    alias(libs.plugins.kotlin.compose)
                    alias(libs.plugins.ksp)
                    alias(libs.plugins.room)
                }

                val keystoreProperties = Properties().apply {
                    val file = rootProject.file("keystore.properties")
                    if (file.exists()) file.inputStream().use { load(it) }
                }

                fun signingValue(key: String, env: String): String? =
                    keystoreProperties.getProperty(key) ?: System.getenv(env)

                android {
                    namespace = "com.lowtide.streakwise"
                    compileSdk = 36

                    defaultConfig {
                        applicationId = "com.lowtide.streakwise"
                        minSdk = 26
                        targetSdk = 36
                        versionCode = 6
                        versionName = "0.5.0"
                        testInstrumentationRunner = "androidx.test.runner.AndroidJUnitRunner"
                    }

                    signingConfigs {
                        create("release") {
                            val storePath = signingValue("storeFile", "STREAKWISE_STORE_FILE")
                            if (storePath != null) {
                                storeFile = file(storePath)
                                storePassword = signingValue("storePassword", "STREAKWISE_STORE_PASSWORD")
                                keyAlias = signingValue("keyAlias", "STREAKWISE_KEY_ALIAS")
                                keyPassword = signingValue("keyPassword", "STREAKWISE_KEY_PASSWORD")
                            }
                        }
                    }

                    buildTypes {
                        release {
                            isMinifyEnabled = true
                            isShrinkResources = true
                            proguardFiles(
                                getDefaultProguardFile("proguard-android-optimize.txt"),
                                "proguard-rules.pro",
                            )
                            signingConfig = signingConfigs.getByName("release")
                        }
                        debug {
                            applicationIdSuffix = ".debug"
                            versionNameSuffix = "-debug"
                        }
                    }
                    compileOptions {
                        sourceCompatibility = JavaVersion.VERSION_17
                        targetCompatibility = JavaVersion.VERSION_17
                    }
                    kotlinOptions {
                        jvmTarget = "17"
                    }
                    buildFeatures {
                        compose = true
                        buildConfig = true
                    }
                    sourceSets {
                        getByName("androidTest").assets.srcDir("$projectDir/schemas")
                    }
                }

                room {
                    schemaDirectory("$projectDir/schemas")
                }

                dependencies {
                    implementation(platform(libs.androidx.compose.bom))
                    implementation(libs.androidx.compose.material3)
                    implementation(libs.androidx.activity.compose)
                    implementation(libs.androidx.lifecycle.viewmodel.compose)
                    implementation(libs.androidx.lifecycle.runtime.compose)
                    implementation(libs.androidx.room.runtime)
                    implementation(libs.androidx.room.ktx)
                    implementation(libs.androidx.work.runtime.ktx)
                    implementation(libs.billing.ktx)
                    ksp(libs.androidx.room.compiler)
                    testImplementation(libs.junit)
                    androidTestImplementation(libs.androidx.room.testing)
                    androidTestImplementation(libs.androidx.test.runner)
                    androidTestImplementation(libs.androidx.test.ext.junit)
                }
                ```

                I've also moved `compileSdk` and `targetSdk` to 36. Play requires new apps and updates to
                target Android 16 (API 36) from 31 August 2026, i.e. from today, so your 1.0 would have been
                refused at 35. At 36 the opt-out from edge-to-edge is gone: check that your top app bar and
                bottom buttons aren't drawn under the status and navigation bars. With Compose Material 3's
                `Scaffold` it usually just works, if you pass the `innerPadding` through.

                One consequence of raising `minSdk`: testers on Android 7 would stop getting updates. Play
                keeps the old version on their phone. From your numbers that's probably no one in the closed
                test. Does anyone there have a really old phone besides Matthias?
                """
            )
        ),
        u("No, Matthias's S10 is on Android 12 even if he won't update it. Everyone else is newer."),
        a(
            w(
                r"""
                Then nobody's affected. Commit message for this, as you like them:

                ```text
                build!: raise minSdk to 26 and target sdk 36

                Drops core library desugaring and the pre-O notification
                channel branches. Devices on Android 7.x no longer get updates.

                BREAKING CHANGE: Android 7.0 and 7.1 are no longer supported.
                ```

                The `!` and the `BREAKING CHANGE` footer are the Conventional Commits way to flag something
                that drops support. A changelog tool will put it at the top.
                """
            )
        ),
        u(
            w(
                r"""
                Next Pro feature, since Paulina finished the designs on Tuesday: a home-screen widget
                showing today's habits with tick boxes. Pro only. Free users see a widget preview with a
                lock icon. Glance, I assume?
                """
            ),
            key="mt-pro-widget",
        ),
        a(
            w(
                r"""
                Glance, yes. It's the Compose-style API for widgets, and it handles the RemoteViews plumbing
                for you. Before anything else, the cost, as agreed:

                - `androidx.glance:glance-appwidget:1.1.0` adds roughly 450 to 550 KB to the release APK
                  after R8. It brings its own runtime on top of Compose's, since widgets can't use the
                  regular Compose UI toolkit.
                - The alternative, classic `RemoteViews` with XML layouts, is 0 KB extra but about three
                  times the code, and tick boxes there are awkward below API 31.

                So you'd go from around 5.6 MB to roughly 6.1 MB. If staying under 6 MB matters more than
                the convenience, say so and I'll do it with RemoteViews.

                The shape of the Glance version:

                ```kotlin
                // widget/StreakWidget.kt
                class StreakWidget : GlanceAppWidget() {

                    override suspend fun provideGlance(context: Context, id: GlanceId) {
                        val container = (context.applicationContext as StreakwiseApp).container
                        val isPro = container.proAccess.isPro.value
                        val habits = container.habitRepository.todayForWidget()
                        provideContent {
                            GlanceTheme {
                                if (isPro) TodayList(habits) else LockedPreview()
                            }
                        }
                    }
                }

                class StreakWidgetReceiver : GlanceAppWidgetReceiver() {
                    override val glanceAppWidget: GlanceAppWidget = StreakWidget()
                }
                ```

                A tick in the widget runs an `ActionCallback` that writes the check-in through the
                repository and then calls `StreakWidget().updateAll(context)`. The app should also call
                `updateAll` whenever a check-in happens inside the app, otherwise the widget shows stale
                ticks until its next periodic update (at most every 30 minutes, set by
                `updatePeriodMillis`).
                """
            )
        ),
        u("6.1 MB is fine for a widget people will actually see every day. Going with Glance."),
        a(
            "Sensible trade. Send me Paulina's sizes and I'll write the `appwidget-provider` XML and the receiver "
            "entry for the manifest; the tick action can follow once the layout is settled."
        ),
        u(
            w(
                r"""
                Paulina's sizes for the widget: minimum 2×2 cells, resizable up to 4×3, and she wants the
                preview in the widget picker to be her mockup image rather than a blank rectangle. The
                drawable is `widget_preview.png`.
                """
            )
        ),
        a(
            w(
                r"""
                Cells translate to dp via Google's formula (roughly 73 dp per cell minus padding), but on
                Android 12+ you can also give the cell counts directly. The provider XML, with both so older
                launchers get the dp values:

                ```xml
                <!-- res/xml/streak_widget_info.xml -->
                <appwidget-provider xmlns:android="http://schemas.android.com/apk/res/android"
                    android:minWidth="110dp"
                    android:minHeight="110dp"
                    android:minResizeWidth="110dp"
                    android:minResizeHeight="110dp"
                    android:maxResizeWidth="320dp"
                    android:maxResizeHeight="250dp"
                    android:targetCellWidth="2"
                    android:targetCellHeight="2"
                    android:resizeMode="horizontal|vertical"
                    android:updatePeriodMillis="1800000"
                    android:previewImage="@drawable/widget_preview"
                    android:description="@string/widget_description"
                    android:widgetCategory="home_screen"
                    android:initialLayout="@layout/glance_default_loading_layout" />
                ```

                The receiver in `AndroidManifest.xml`, inside `<application>`:

                ```xml
                <receiver
                    android:name=".widget.StreakWidgetReceiver"
                    android:exported="true"
                    android:label="@string/widget_name">
                    <intent-filter>
                        <action android:name="android.appwidget.action.APPWIDGET_UPDATE" />
                    </intent-filter>
                    <meta-data
                        android:name="android.appwidget.provider"
                        android:resource="@xml/streak_widget_info" />
                </receiver>
                ```

                `exported="true"` is required here, because the launcher (another app) sends the update
                broadcasts. `updatePeriodMillis` of 30 minutes is the minimum Android allows, and it's only
                a fallback: the real updates come from `updateAll()` after each check-in.

                On Android 12+ there's also `android:previewLayout`, which renders a live layout in the
                picker instead of an image. It doesn't work with Glance compositions directly, so Paulina's
                image is the better choice for now.
                """
            )
        ),
    ],
)

S7 = Session(
    "2026-09-08T04:30:00Z",
    [
        u(
            w(
                r"""
                Bad morning. I shipped 0.5.1 to the closed test on Saturday with drag-to-reorder for habits,
                and the Play Console shows an IllegalStateException on launch for six of the fifteen
                testers. Ruth messaged "your app opens and closes, is that a feature". Here's the stack trace
                from Android vitals:

                ```text
                java.lang.IllegalStateException: Migration didn't properly handle:
                habits(com.lowtide.streakwise.data.HabitEntity).
                 Expected:
                TableInfo{name='habits', columns={id=Column{name='id', type='INTEGER', affinity='3',
                notNull=true, primaryKeyPosition=1, defaultValue='undefined'}, name=Column{name='name',
                type='TEXT', affinity='2', notNull=true, primaryKeyPosition=0, defaultValue='undefined'},
                colour=Column{...}, created_at=Column{...}, archived=Column{...},
                freeze_tokens=Column{name='freeze_tokens', type='INTEGER', affinity='3', notNull=true,
                primaryKeyPosition=0, defaultValue='0'}, sort_order=Column{name='sort_order', type='INTEGER',
                affinity='3', notNull=true, primaryKeyPosition=0, defaultValue='undefined'}}, foreignKeys=[],
                indices=[]}
                 Found:
                TableInfo{name='habits', columns={id=Column{...}, name=Column{...}, colour=Column{...},
                created_at=Column{...}, archived=Column{...}, freeze_tokens=Column{...},
                sort_order=Column{name='sort_order', type='INTEGER', affinity='3', notNull=false,
                primaryKeyPosition=0, defaultValue='undefined'}}, foreignKeys=[], indices=[]}
                    at androidx.room.RoomOpenHelper.onUpgrade(RoomOpenHelper.kt:105)
                    at androidx.sqlite.db.framework.FrameworkSQLiteOpenHelper$OpenHelper.onUpgrade(
                        FrameworkSQLiteOpenHelper.kt:256)
                    at android.database.sqlite.SQLiteOpenHelper.getDatabaseLocked(SQLiteOpenHelper.java:417)
                    at com.lowtide.streakwise.data.HabitRepository.observeHabits(HabitRepository.kt:31)
                ```

                My migration was:

                ```kotlin
                val MIGRATION_4_5 = object : Migration(4, 5) {
                    override fun migrate(db: SupportSQLiteDatabase) {
                        db.execSQL("ALTER TABLE habits ADD COLUMN sort_order INTEGER")
                    }
                }
                ```

                and the entity got `@ColumnInfo(name = "sort_order") val sortOrder: Int = 0`. I didn't write a
                test for this one because it was "just one column". I know. I know.
                """
            ),
            key="mt-crash-migration",
        ),
        a(
            w(
                r"""
                The trace tells you exactly what's wrong, once you find the one differing field in those
                enormous lines: for `sort_order`, Room expected `notNull=true` and found `notNull=false`.

                - The entity has `val sortOrder: Int`, a non-nullable Kotlin `Int`, so Room's generated
                  schema says `INTEGER NOT NULL`.
                - Your migration added `sort_order INTEGER`, which SQLite makes nullable.
                - After running the migrations, Room compares the real table with the expected one, finds
                  the mismatch and throws, on every launch, because the upgrade never completes.

                The Kotlin default `= 0` doesn't help, because it only exists in Kotlin. It never reaches
                SQLite. And SQLite won't let you add a `NOT NULL` column to a table with rows unless you
                give it a default, which is why the plain `ALTER` without one "worked".

                **The good news** is in the first frame: this happens inside `onUpgrade`, and
                `SQLiteOpenHelper` runs the whole upgrade in a single transaction. The exception rolls it
                back, so your six testers are still on a perfectly intact version-4 database. Nobody is stuck
                on a half-migrated schema 5, and nobody has lost data. That means you can **fix
                `MIGRATION_4_5` in place** rather than adding a 5→6 repair migration.

                The fix, both sides:

                ```kotlin
                @ColumnInfo(name = "sort_order", defaultValue = "0") val sortOrder: Int = 0,
                ```

                ```kotlin
                val MIGRATION_4_5 = object : Migration(4, 5) {
                    override fun migrate(db: SupportSQLiteDatabase) {
                        db.execSQL("ALTER TABLE habits ADD COLUMN sort_order INTEGER NOT NULL DEFAULT 0")
                        // existing habits keep their current order: creation time
                        db.execSQL(
                            "UPDATE habits SET sort_order = " +
                                "(SELECT COUNT(*) FROM habits AS h2 WHERE h2.created_at < habits.created_at)"
                        )
                    }
                }

                val ALL_MIGRATIONS = arrayOf(MIGRATION_3_4, MIGRATION_4_5)
                ```

                I added the `defaultValue = "0"` on the entity too. Since the migration now declares
                `DEFAULT 0`, Room would otherwise complain the other way round (expected `undefined`, found
                `'0'`) on fresh installs versus upgraded ones. Entity and SQL must match exactly, including
                the default.

                And the test you skipped, in the same shape as the freeze one:

                ```kotlin
                @Test
                fun migrate4To5_addsSortOrderInCreationOrder() {
                    helper.createDatabase(TEST_DB, 4).apply {
                        execSQL(
                            "INSERT INTO habits (id, name, colour, created_at, archived, freeze_tokens) " +
                                "VALUES (1, 'Walk', 0, 2000, 0, 1), (2, 'Read', 0, 1000, 0, 0)"
                        )
                        close()
                    }

                    val db = helper.runMigrationsAndValidate(TEST_DB, 5, true, MIGRATION_4_5)

                    db.query("SELECT id, sort_order FROM habits ORDER BY sort_order").use { c ->
                        c.moveToFirst(); assertEquals(2L, c.getLong(0))   // Read was created first
                        c.moveToNext(); assertEquals(1L, c.getLong(0))
                    }
                }
                ```

                `runMigrationsAndValidate` would have thrown exactly the exception from your trace. Also:
                check whether `migrateAll_fromOldestToLatest` ran in CI at all. It's an instrumented test,
                and your release workflow only runs `testReleaseUnitTest`, so **it didn't**. That's the real
                hole. We should move the migration tests to Robolectric so they run on every build without
                an emulator.
                """
            )
        ),
        u(
            w(
                r"""
                Fixed, test added (it fails against the old migration, passes with the new one, very
                satisfying), 0.5.2 uploaded. How much damage have I done? I've read that Play hides apps with
                too many crashes.
                """
            )
        ),
        a(
            w(
                r"""
                Very little, most likely. Android vitals has two "bad behaviour thresholds" that affect
                store visibility:

                - **User-perceived crash rate: 1.09%** of daily active users experiencing at least one
                  crash that they noticed (crash in the foreground).
                - **User-perceived ANR rate: 0.47%**.

                Above those, averaged over the last 28 days, Play may reduce your app's visibility in search
                and recommendations and show a warning on the store page. There are also per-device-model
                thresholds (8% crash rate on a single device model) that can put a warning on the listing for
                people with that phone.

                Three reasons your weekend probably doesn't count for much:

                - It's a closed-test build. The bad behaviour thresholds are about production users.
                - It's a 28-day average over daily active users. A two-day spike among 15 people washes out.
                - You haven't launched, so there's no search visibility to lose yet.

                But it's a good reason to keep an eye on the *Android vitals → Overview* page after launch:
                it shows the 28-day user-perceived crash rate against the 1.09% line. For a simple offline app
                you should be well under 0.5%.

                On the Robolectric move: I'll write that next time. It's a `testOptions` block and moving the
                file, so I'll give you the whole build file again.
                """
            ),
            key="sf-threshold",
        ),
        u(
            w(
                r"""
                Different problem, same morning. One of the Kita mums, Henrike, emailed: "the reminders
                don't come most days, and when they do, it's an hour later than I set". She's been in the
                test since day one and she's the most active tester I have, she's already at a 12-day streak
                on "drink water". Ruth and Agnieszka both say reminders are fine for them.
                """
            ),
            key="mt-reporter",
        ),
        a(
            w(
                r"""
                "Most days not at all, sometimes an hour late" while it's fine for others is the classic
                signature of an OEM battery manager, not of your code. Stock Android (Pixels) defers
                WorkManager jobs a bit in Doze; some manufacturers go much further and kill or freeze apps
                that haven't been opened recently, so the work simply doesn't run until the user opens the
                app. Samsung, Xiaomi, Huawei, OnePlus and Oppo are the usual suspects. The site
                dontkillmyapp.com keeps a ranking, with instructions per brand.

                What her phone is matters a lot for what to do, so: which phone is she on? If she sent the
                report with "Send feedback", the device line at the bottom says it.
                """
            )
        ),
        u("She wrote from her laptop, so no device line. I've asked her."),
        a(
            w(
                r"""
                While you wait, here are the options, in order of how much they help on aggressive phones:

                1. **Exact alarms** instead of WorkManager. `AlarmManager.setExactAndAllowWhileIdle()` fires
                   even in Doze, and most OEM battery managers leave alarms alone more than jobs. This is what
                   alarm clocks and calendar apps use. The catch: on Android 12+ it needs
                   `SCHEDULE_EXACT_ALARM`, which on Android 14 and later is denied by default for fresh
                   installs of apps targeting 13+. So you must check `canScheduleExactAlarms()` first and fall
                   back to an inexact alarm, or send the user to the settings screen to allow it.
                2. **Ask to be exempted from battery optimisation** (`ACTION_REQUEST_IGNORE_BATTERY_OPTIMIZATIONS`).
                   Play restricts that permission to a small set of app categories; a habit tracker isn't
                   one of them. Linking to the settings page without the permission is allowed.
                3. **In-app guidance**: a "Reminders not arriving?" screen that detects the manufacturer and
                   explains the two or three settings to change, the way dontkillmyapp.com does it.

                I'd do 1 and 3. Here's an alarm-based scheduler with the check and the fallback:

                ```kotlin
                // reminders/AlarmReminderScheduler.kt
                object AlarmReminderScheduler {
                    private const val REQUEST_CODE = 2001

                    fun scheduleNext(context: Context, at: LocalTime, now: ZonedDateTime = ZonedDateTime.now()) {
                        var next = now.with(at).withSecond(0).withNano(0)
                        if (!next.isAfter(now)) next = next.plusDays(1)
                        val triggerAt = next.toInstant().toEpochMilli()

                        val alarmManager = context.getSystemService(AlarmManager::class.java)
                        val pending = PendingIntent.getBroadcast(
                            context,
                            REQUEST_CODE,
                            Intent(context, ReminderReceiver::class.java),
                            PendingIntent.FLAG_UPDATE_CURRENT or PendingIntent.FLAG_IMMUTABLE,
                        )

                        if (Build.VERSION.SDK_INT < Build.VERSION_CODES.S || alarmManager.canScheduleExactAlarms()) {
                            alarmManager.setExactAndAllowWhileIdle(AlarmManager.RTC_WAKEUP, triggerAt, pending)
                        } else {
                            // no permission: inexact, still allowed in Doze, usually within minutes
                            alarmManager.setAndAllowWhileIdle(AlarmManager.RTC_WAKEUP, triggerAt, pending)
                        }
                    }
                }
                ```

                The receiver shows the notification and calls `scheduleNext` again. You also need a
                `BOOT_COMPLETED` receiver, because alarms don't survive a reboot (WorkManager did that for
                you for free). And a manifest entry:

                ```xml
                <uses-permission android:name="android.permission.SCHEDULE_EXACT_ALARM" />
                <uses-permission android:name="android.permission.RECEIVE_BOOT_COMPLETED" />
                ```

                No new dependency: `AlarmManager` is part of the platform, so 0 KB. If the alarms replace
                WorkManager entirely, you even get the 250 to 300 KB back, unless you keep WorkManager for
                something else.
                """
            ),
        ),
        u(
            w(
                r"""
                Looking ahead: on Thursday the fourteen days are up and I can apply for production. I've
                seen the questionnaire preview and it wants free-text answers: how did you recruit testers,
                how easy was it, describe the engagement, what feedback did you get, what changed. Can you
                help me draft answers? I'll make them true, don't worry.
                """
            )
        ),
        a(
            w(
                r"""
                Happy to. Reviewers are looking for evidence that real people used a real app and that you
                listened. Specific beats polished. Drafts, with placeholders where only you know the answer:

                **How did you recruit testers?**
                ```text
                Family, colleagues and parents from my daughter's kindergarten group. I asked people who
                already try to build habits (exercise, reading, drinking water) so they would use the app
                daily rather than install and forget it. 15 testers joined through a Google Group.
                ```

                **How easy was it to recruit testers?**
                Pick "somewhat easy" or whatever's true. The follow-up text can mention the opt-in
                problems (Play Store signed into a different account) you solved.

                **Describe the engagement.**
                ```text
                Most testers used the app daily. Several built streaks of 10+ days during the test. Testers
                used reminders, the streak freeze feature and reordering of habits. I shipped [N] updates
                during the test and testers updated within a day or two.
                ```

                **Summarise the feedback.**
                ```text
                - A crash on launch after a database update in 0.5.1, found by testers and fixed in 0.5.2
                - Reminders arriving late or not at all on one Samsung phone; I switched to exact alarms
                  with a fallback and added guidance for battery settings
                - Requests for reordering habits and a home-screen widget, both added
                ```

                **What changes did you make?** The same list, framed as changes, plus anything from Ruth's
                notes you acted on.

                **Is the app ready for production?** Yes, and one sentence why: "crash-free for the last
                [N] days of the test across [N] devices, including Android 12 to 15."

                Two cautions: don't inflate numbers (Play can see the real opt-in and usage data), and don't
                paste the same text into every field. Short and specific per question.
                """
            )
        ),
        u(
            w(
                r"""
                I'll switch to alarms this week. Family news: Elsie's settling-in at Kita is done, she now
                walks in without looking back, which is great and also a bit devastating. And at work there's
                a rumour that our team is being merged with the policy team in January. Nobody will say
                anything official, which is how you know it's true.
                """
            )
        ),
        a(
            "Walking in without looking back is the best possible outcome, even if it stings. And the "
            "no-comment rumour is a classic. If the merge happens, your mornings on Streakwise might be worth "
            "more than ever as the part of the week you control."
        ),
    ],
)

S8 = Session(
    "2026-09-15T04:40:00Z",
    [
        u(
            "Quick one first: I pushed a throwaway tag at 6:10 just to time it, and the release workflow was "
            "green at 6:16. About 6 minutes "
            "from push to AAB now that the cache is warm, so the build no longer outlasts my coffee.",
            key="ku-build-new",
        ),
        a(
            w(
                r"""
                That's the cache doing its job. Six minutes is about as good as it gets on a standard
                hosted runner for a Compose app with R8: most of what's left is R8 itself and the Kotlin
                compile of whatever changed. If you ever want more, the next step would be a larger runner,
                which costs money on a private repository, so I wouldn't bother.
                """
            )
        ),
        u(
            w(
                r"""
                Now the less fun part. I switched reminders to alarms on Thursday (0.5.3) and there's a new
                SecurityException crash in the console since Saturday, 11 occurrences, all on Android 14 and 15:

                ```text
                java.lang.SecurityException: Caller com.lowtide.streakwise needs to hold
                android.permission.SCHEDULE_EXACT_ALARM or android.permission.USE_EXACT_ALARM to set exact
                alarms.
                    at android.os.Parcel.createExceptionOrNull(Parcel.java:3057)
                    at android.os.Parcel.createException(Parcel.java:3041)
                    at android.app.IAlarmManager$Stub$Proxy.set(IAlarmManager.java:421)
                    at android.app.AlarmManager.setImpl(AlarmManager.java:1267)
                    at android.app.AlarmManager.setExactAndAllowWhileIdle(AlarmManager.java:1541)
                    at com.lowtide.streakwise.reminders.AlarmReminderScheduler.scheduleNext(
                        AlarmReminderScheduler.kt:24)
                    at com.lowtide.streakwise.settings.SettingsViewModel.setReminderTime(SettingsViewModel.kt:58)
                ```

                Confession: I "simplified" your version and dropped the `canScheduleExactAlarms()` branch,
                because it always returned true on my Pixel. Also Henrike finally answered: she has a Samsung
                Galaxy A52, on Android 14, and two of the eleven crashes are hers.
                """
            ),
            key="s8-crash",
        ),
        a(
            w(
                r"""
                That explains both things at once. Your Pixel returns true because the app was installed
                with Android Studio and you'd allowed the permission at some point (or the install was an
                update from before the default changed). Fresh installs from Play on Android 14+ start
                with the permission **denied**, and `setExactAndAllowWhileIdle` then throws
                `SecurityException` instead of quietly degrading.

                And a Galaxy A52 is one of the phones where Samsung's "sleeping apps" feature is known to
                swallow background work, which explains Henrike's missing reminders in the first place.

                Fix: put the branch back, and add a way for the user to grant the permission, at the moment
                it makes sense (when they switch reminders on), with an explanation first.

                ```kotlin
                // reminders/AlarmReminderScheduler.kt
                package com.lowtide.streakwise.reminders

                object AlarmReminderScheduler {
                    private const val REQUEST_CODE = 2001

                    fun canBeExact(context: Context): Boolean =
                        Build.VERSION.SDK_INT < Build.VERSION_CODES.S ||
                            context.getSystemService(AlarmManager::class.java).canScheduleExactAlarms()

                    fun scheduleNext(context: Context, at: LocalTime, now: ZonedDateTime = ZonedDateTime.now()) {
                        var next = now.with(at).withSecond(0).withNano(0)
                        if (!next.isAfter(now)) next = next.plusDays(1)
                        val triggerAt = next.toInstant().toEpochMilli()

                        val alarmManager = context.getSystemService(AlarmManager::class.java)
                        val pending = PendingIntent.getBroadcast(
                            context,
                            REQUEST_CODE,
                            Intent(context, ReminderReceiver::class.java),
                            PendingIntent.FLAG_UPDATE_CURRENT or PendingIntent.FLAG_IMMUTABLE,
                        )

                        try {
                            if (canBeExact(context)) {
                                alarmManager.setExactAndAllowWhileIdle(AlarmManager.RTC_WAKEUP, triggerAt, pending)
                            } else {
                                alarmManager.setAndAllowWhileIdle(AlarmManager.RTC_WAKEUP, triggerAt, pending)
                            }
                        } catch (e: SecurityException) {
                            // permission revoked between the check and the call
                            alarmManager.setAndAllowWhileIdle(AlarmManager.RTC_WAKEUP, triggerAt, pending)
                        }
                    }

                    fun exactAlarmSettingsIntent(context: Context): Intent =
                        Intent(Settings.ACTION_REQUEST_SCHEDULE_EXACT_ALARM)
                            .setData(Uri.parse("package:${context.packageName}"))
                }
                ```

                The `try/catch` looks redundant right after the check, but the user can revoke the
                permission at any moment, and there's a small window between the check and the call.
                Cheap insurance for a crash that otherwise happens in a settings screen.

                When the permission is granted, the system sends
                `AlarmManager.ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED`. Register a receiver
                for it and reschedule, so the next reminder becomes exact straight away:

                ```xml
                <receiver android:name=".reminders.ExactAlarmPermissionReceiver" android:exported="false">
                    <intent-filter>
                        <action android:name="android.app.action.SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED" />
                    </intent-filter>
                </receiver>
                ```

                Why not `USE_EXACT_ALARM` instead, which is granted automatically? Because Play only allows
                it for apps whose core function is an alarm clock or a calendar, and declaring it in a habit
                tracker gets the update rejected at review.

                For Henrike specifically: exact alarms will help, but on Samsung she'll also want to take
                Streakwise out of "Sleeping apps" (*Settings → Battery → Background usage limits*). That's
                what the in-app "Reminders not arriving?" screen is for.

                Commit message:

                ```text
                fix(reminders): fall back to inexact alarm without permission

                Android 14+ denies SCHEDULE_EXACT_ALARM by default on fresh installs,
                and setExactAndAllowWhileIdle throws SecurityException without it.
                Check canScheduleExactAlarms, catch the exception, and reschedule
                when the permission state changes.
                ```
                """
            )
        ),
        u(
            w(
                r"""
                Shipped as 0.5.4. Personnel news: Paulina has taken a full-time job at an agency in Dresden
                and can't do evenings or weekends any more. She's handed Streakwise over to a friend of hers,
                Kofi Mensah, who'll do my design from now on, also one day a week (Thursdays in his case).
                He's starting with the store listing: icon, feature graphic, screenshots. What sizes does he
                need?
                """
            ),
            key="ku-designer-new",
        ),
        a(
            w(
                r"""
                Congratulations to Paulina, and welcome to Kofi. The Play listing assets, in the two-column
                form your phone can handle:

                | Asset | Spec |
                |---|---|
                | App icon | 512 × 512 PNG, 32-bit, max 1 MB |
                | Feature graphic | 1024 × 500 JPEG or 24-bit PNG, no alpha |
                | Phone screenshots | 2 to 8, PNG or JPEG, 16:9 or 9:16, 320 to 3840 px per side |
                | 7" tablet screenshots | optional, but needed to show up as "designed for tablets" |
                | 10" tablet screenshots | same |

                And the text:

                | Field | Limit |
                |---|---|
                | App name | 30 characters |
                | Short description | 80 characters |
                | Full description | 4,000 characters |

                Tips for Kofi:

                - **Icon**: Play adds the rounded mask and shadow itself. The 512 px file should be a plain
                  square, full-bleed; if he rounds the corners himself, it ends up double-rounded.
                - **Feature graphic**: it's shown with overlays (a play button for a video, the app name on
                  some surfaces). Keep important content away from the edges and don't repeat the app name
                  in big letters.
                - **Screenshots**: the first two or three are the ones people see without scrolling. Show
                  the streak screen, the widget, the reminder. Text in screenshots gets translated by nobody,
                  so if you want German and English listings, he'll need two sets, or captions outside the
                  phone frame that are easy to redo.
                - Screenshots of a Pro feature are fine, but if a screenshot shows something paid, Play
                  expects the listing to make clear what's free and what's paid.

                Is he designing in Figma too, or do you need a way to make the screenshots from the real app?
                """
            )
        ),
        u("Figma. He'll take raw screenshots from my phone and frame them there."),
        a(
            w(
                r"""
                Then for raw screenshots: turn on demo mode, so the status bar shows a clean full battery,
                full signal and a fixed time instead of your actual 6:47 and 23% battery:

                ```bash
                adb shell settings put global sysui_demo_allowed 1
                adb shell am broadcast -a com.android.systemui.demo -e command enter
                adb shell am broadcast -a com.android.systemui.demo -e command clock -e hhmm 0900
                adb shell am broadcast -a com.android.systemui.demo -e command battery -e level 100 -e plugged false
                adb shell am broadcast -a com.android.systemui.demo -e command network -e wifi show -e level 4
                adb shell am broadcast -a com.android.systemui.demo -e command notifications -e visible false
                # take screenshots, then:
                adb shell am broadcast -a com.android.systemui.demo -e command exit
                ```

                And use a seeded demo database rather than your real habits, unless you want the world to
                know about "no phone in bed", day 3.
                """
            )
        ),
        u(
            w(
                r"""
                Ha. "No phone in bed" is at day 9, thank you very much. Big news though: production access
                was approved yesterday! Applied on the 11th, approved on the 14th. So the 29th is on. How
                should the production rollout itself go? I've heard of staged rollouts but not used one.
                """
            )
        ),
        a(
            w(
                r"""
                Congratulations! Three days is a fast review.

                A staged rollout means Play offers the update (or, for a first release, the app itself) to a
                random percentage of users, and you widen it in steps. For a *first* release it's a bit
                different: the percentage applies to who can see and install the app at all. Everyone else
                sees nothing until you widen it. Here's what I'd suggest:

                - **Day 1 (2026-09-29): 5%.** Watch Android vitals and the pre-launch report closely.
                - **Day 3: 20%**, if the crash rate is low and no new clusters appear.
                - **Day 5: 50%.**
                - **Day 7: 100%.**

                Rules for pausing:

                - Any new crash cluster affecting more than a handful of users: **halt** the rollout (one
                  button, under *Release → Production*). People who already have the app keep it; nobody
                  new gets it.
                - Fix, upload the fix as a new release, and start its rollout at the percentage you'd
                  reached.
                - You can't roll back to an older versionCode. "Rollback" on Play means shipping a new
                  release with a higher versionCode containing the old code.

                Also make sure **Managed publishing** is on before you submit 1.0.0 next week, so the
                approved release waits for you to press the button on the 29th.
                """
            ),
            key="ku-rollout-old",
        ),
        u("Side question: versionCode. I've just been adding 1 each upload. Is that going to bite me later?"),
        a(
            w(
                r"""
                Adding 1 per upload is fine and what most solo apps do. The only hard rules are that every
                upload needs a higher `versionCode` than anything previously uploaded to *any* track, and it
                must stay below 2,100,000,000. You're still in single digits, so you have some room.

                Where simple counting bites:

                - **Two builds from two branches** (say a hotfix for production while the next version is in
                  closed testing) can't both be "the next number". The fix: give the hotfix the next number
                  and bump `main` past it. Annoying, but rare for one person.
                - **CI and laptop uploads mixed**: if both can upload, they can collide. Since CI is going to
                  be the only uploader, that problem goes away.

                Schemes that encode the version (`major * 10000 + minor * 100 + patch`, so 1.2.3 is 10203)
                look tidy but make hotfixes awkward in a different way, and deriving the code from the CI run
                number ties it to GitHub forever. Keep counting; write the number in the tag message if you
                want to find it again.
                """
            )
        ),
        u("Managed publishing is on. Submitting 1.0.0 on the 22nd as planned."),
        a(
            "Good. Between now and then: let the 0.5.4 fix soak in the closed test, and ask Henrike to take "
            "Streakwise out of Samsung's sleeping apps, so we learn whether exact alarms plus that setting "
            "cure her reminders."
        ),
    ],
)

S9 = Session(
    "2026-09-22T04:25:00Z",
    [
        u(
            w(
                r"""
                Submission day. Before I press the button on 1.0.0: you promised me the migration tests on
                Robolectric so they run in CI without an emulator. Can we do that now? I want CI to catch
                the next `sort_order` before a tester does.
                """
            )
        ),
        a(
            w(
                r"""
                Yes. Since Room 2.6, `MigrationTestHelper` works in local JVM tests under Robolectric, so
                the tests move from `src/androidTest` to `src/test`, and the schema JSON files are handed to
                the test as assets of the unit test source set. The whole `app/build.gradle.kts`:

                ```kotlin
                import java.util.Properties

                plugins {
                    alias(libs.plugins.android.application)
                    alias(libs.plugins.kotlin.android)
                    alias(libs.plugins.kotlin.compose)
                    alias(libs.plugins.ksp)
                    alias(libs.plugins.room)
                }

                val keystoreProperties = Properties().apply {
                    val file = rootProject.file("keystore.properties")
                    if (file.exists()) file.inputStream().use { load(it) }
                }

                fun signingValue(key: String, env: String): String? =
                    keystoreProperties.getProperty(key) ?: System.getenv(env)

                android {
                    namespace = "com.lowtide.streakwise"
                    compileSdk = 36

                    defaultConfig {
                        applicationId = "com.lowtide.streakwise"
                        minSdk = 26
                        targetSdk = 36
                        versionCode = 10
                        versionName = "1.0.0"
                        testInstrumentationRunner = "androidx.test.runner.AndroidJUnitRunner"
                    }

                    signingConfigs {
                        create("release") {
                            val storePath = signingValue("storeFile", "STREAKWISE_STORE_FILE")
                            if (storePath != null) {
                                storeFile = file(storePath)
                                storePassword = signingValue("storePassword", "STREAKWISE_STORE_PASSWORD")
                                keyAlias = signingValue("keyAlias", "STREAKWISE_KEY_ALIAS")
                                keyPassword = signingValue("keyPassword", "STREAKWISE_KEY_PASSWORD")
                            }
                        }
                    }

                    buildTypes {
                        release {
                            isMinifyEnabled = true
                            isShrinkResources = true
                            proguardFiles(
                                getDefaultProguardFile("proguard-android-optimize.txt"),
                                "proguard-rules.pro",
                            )
                            signingConfig = signingConfigs.getByName("release")
                        }
                        debug {
                            applicationIdSuffix = ".debug"
                            versionNameSuffix = "-debug"
                        }
                    }
                    compileOptions {
                        sourceCompatibility = JavaVersion.VERSION_17
                        targetCompatibility = JavaVersion.VERSION_17
                    }
                    kotlinOptions {
                        jvmTarget = "17"
                    }
                    buildFeatures {
                        compose = true
                        buildConfig = true
                    }
                    sourceSets {
                        // MigrationTestHelper reads the exported schemas as assets
                        getByName("test").assets.srcDir("$projectDir/schemas")
                        getByName("androidTest").assets.srcDir("$projectDir/schemas")
                    }
                    testOptions {
                        unitTests {
                            isIncludeAndroidResources = true
                        }
                    }
                }

                room {
                    schemaDirectory("$projectDir/schemas")
                }

                dependencies {
                    implementation(platform(libs.androidx.compose.bom))
                    implementation(libs.androidx.compose.material3)
                    implementation(libs.androidx.activity.compose)
                    implementation(libs.androidx.lifecycle.viewmodel.compose)
                    implementation(libs.androidx.lifecycle.runtime.compose)
                    implementation(libs.androidx.room.runtime)
                    implementation(libs.androidx.room.ktx)
                    implementation(libs.androidx.work.runtime.ktx)
                    implementation(libs.androidx.glance.appwidget)
                    implementation(libs.billing.ktx)
                    ksp(libs.androidx.room.compiler)
                    testImplementation(libs.junit)
                    testImplementation(libs.robolectric)
                    testImplementation(libs.androidx.room.testing)
                    testImplementation(libs.androidx.test.core)
                    testImplementation(libs.androidx.test.ext.junit)
                    androidTestImplementation(libs.androidx.room.testing)
                    androidTestImplementation(libs.androidx.test.runner)
                    androidTestImplementation(libs.androidx.test.ext.junit)
                }
                ```

                Then move `MigrationTest.kt` to `app/src/test/java/com/lowtide/streakwise/data/` and add
                one annotation, so Robolectric runs it against a real Android SQLite implementation:

                ```kotlin
                @RunWith(AndroidJUnit4::class)
                @Config(sdk = [34])
                class MigrationTest {
                    // unchanged: helper rule, migrate3To4..., migrate4To5..., migrateAll...
                }
                ```

                `@Config(sdk = [34])` pins the Robolectric Android version. Robolectric sometimes lags a
                release behind the newest API level, and pinning avoids "SDK 36 not supported" surprises on
                CI. Migrations don't care about the API level.

                Robolectric, and the rest of the `testImplementation` lines, are test-only: they add 0 KB to
                the release APK. WorkManager is still in the list because the widget's periodic refresh
                uses it even after the reminders moved to alarms.

                Since your workflow already runs `testReleaseUnitTest`, nothing changes in `release.yml`:
                the migration tests now run there automatically. Want them on every push to `main` as well,
                not just on tags?
                """
            )
        ),
        u("Yes, on every push. Tags are too late to find out."),
        a(
            w(
                r"""
                Then a second, small workflow, `.github/workflows/check.yml`, that only tests, so it
                doesn't need any secrets:

                ```yaml
                name: check

                on:
                  push:
                    branches: [main]
                  pull_request:

                permissions:
                  contents: read

                jobs:
                  test:
                    runs-on: ubuntu-latest
                    timeout-minutes: 20
                    steps:
                      - uses: actions/checkout@v4

                      - uses: actions/setup-java@v4
                        with:
                          distribution: temurin
                          java-version: "17"

                      - uses: gradle/actions/setup-gradle@v4
                        with:
                          cache-read-only: false

                      - name: Unit and migration tests
                        run: ./gradlew testDebugUnitTest

                      - name: Keep test reports on failure
                        if: failure()
                        uses: actions/upload-artifact@v4
                        with:
                          name: test-reports
                          path: app/build/reports/tests/
                ```

                `testDebugUnitTest` rather than the release variant, so no R8 and no signing: it's the
                fastest way to run the same tests. Because both workflows use setup-gradle, they share the
                dependency cache, and pushes to `main` keep it warm for the next tag build.
                """
            )
        ),
        u(
            w(
                r"""
                Both workflows green. Now the console wants a "Data safety" form and a privacy policy URL
                before I can submit. I collect nothing: no analytics, no accounts, no backend. Is that just
                "no" to everything?
                """
            )
        ),
        a(
            w(
                r"""
                Nearly, but two things in your app count even without a backend:

                - **Purchase history via Play Billing.** Google's guidance is that data handled by Play
                  services on Google's behalf (the billing transaction itself) doesn't have to be declared
                  by you, as long as you don't collect it into your own systems. You don't: the purchase
                  token lives on the device and is only sent to Google's own API. So it's not "collected" by
                  you.
                - **Crash reports.** Android vitals crash data is collected by Google Play itself, not by
                  your app's code, so it's also not something you declare, as long as you haven't added
                  Crashlytics or Sentry. You haven't.
                - **The feedback email.** It's sent by the user's mail app, on their initiative, to an address
                  they can see. The usual reading is that user-initiated email isn't collection by the app.

                So the answers are:

                - Does your app collect or share any of the required user data types? **No.**
                - That unlocks a short path: you confirm that no data is collected or shared. Play shows
                  "No data collected" and "No data shared with third parties" on the listing.

                You still need a privacy policy URL, even with nothing collected. Short and true is fine; a
                GitHub Pages site in a separate public repo is enough. It should state: no personal data is
                collected, habits are stored only on the device, purchases are handled by Google Play, the
                feedback email is only used to reply, and a contact address. Write it in German and English,
                since your first market is Germany.

                One more honest point: if you ever add Android Auto Backup of the database to the user's
                Google Drive (it's on by default, `android:allowBackup="true"`), that's still not
                collection by you, because it goes to the user's own account. Worth knowing in case a tester
                asks why their habits survived a phone reset.
                """
            )
        ),
        u("Could you draft the privacy policy itself? English, short. I'll do the German one from it."),
        a(
            w(
                r"""
                Here's a short one. It's written to be true for the app as it is today. If you ever add
                analytics, crash reporting or sync, it has to change before that release goes out.

                ```markdown
                # Streakwise privacy policy

                Last updated: 2026-09-22

                Streakwise is made by Lowtide Apps, a one-person developer in Leipzig, Germany.
                Contact: hello@lowtide.app

                ## What Streakwise collects

                Nothing. Streakwise has no accounts, no analytics, no advertising and no server. The
                developer never receives your habits, your check-ins or anything else you enter.

                ## Where your data is stored

                Your habits and check-ins are stored only on your device. If Android backup is switched on
                for your Google account, Android may include the app's data in your device backup. That
                backup is held by Google in your account and is not accessible to the developer.

                ## Purchases

                Streakwise Pro is sold through Google Play. Payments are processed by Google under
                Google's privacy policy. The developer receives no payment card details, only the
                information Google Play provides to all developers about orders.

                ## Feedback by email

                If you send feedback from the app, your email app sends a message that includes the app
                version and your device model. It is used only to reply to you and is deleted when it is no
                longer needed.

                ## Children

                Streakwise is not directed at children under 13.

                ## Changes

                If this policy changes, the new version will be published at this address with a new date.
                ```

                This one is markdown because it's a web page, not store text: GitHub Pages renders it. Put
                the contact address in the Play Console's developer contact too; Play requires an email
                there that you actually read.
                """
            )
        ),
        u(
            "allowBackup is on and that's deliberate, the streaks surviving a new phone is a feature. Policy is "
            "up on lowtide.app/privacy. Submitted 1.0.0 for review, managed publishing on."
        ),
        a(
            w(
                r"""
                Good. With auto backup on, check one detail before launch: Room keeps the write-ahead log in
                `streakwise.db-wal` and `-shm` files next to the database. Auto Backup copies all three, so a
                restore is consistent. But if you ever set `full-backup-content` rules, include the whole set
                or none of them, never just `streakwise.db`. Otherwise a restored database can be missing its
                most recent writes.

                Now we wait for review. Anything you want ready for launch morning?
                """
            )
        ),
        u(
            w(
                r"""
                The pre-launch report came back on 0.9.0 (the last closed-test build). No crashes, but
                eleven accessibility warnings, all the same: "Touch target size: this item's height is
                40dp, consider making it at least 48dp". It's the tick circle next to each habit. Does that
                block anything?
                """
            )
        ),
        a(
            w(
                r"""
                It doesn't block publishing. Pre-launch report warnings are advice, not review criteria.
                But it's worth fixing, because 40 dp tick targets are also what makes people tick the wrong
                habit with a thumb on the tram.

                The visual circle can stay 40 dp; what matters is the touchable area. In Compose, Material 3
                components enforce 48 dp automatically through `minimumInteractiveComponentSize()`, but a
                custom `Box` with `clickable` doesn't. So:

                ```kotlin
                @Composable
                fun TickCircle(
                    checked: Boolean,
                    onToggle: () -> Unit,
                    modifier: Modifier = Modifier,
                ) {
                    Box(
                        modifier = modifier
                            .minimumInteractiveComponentSize()   // 48 dp touch area
                            .toggleable(
                                value = checked,
                                role = Role.Checkbox,
                                onValueChange = { onToggle() },
                            ),
                        contentAlignment = Alignment.Center,
                    ) {
                        Box(
                            Modifier
                                .size(40.dp)
                                .clip(CircleShape)
                                .background(if (checked) MaterialTheme.colorScheme.primary else Color.Transparent)
                                .border(2.dp, MaterialTheme.colorScheme.primary, CircleShape),
                        )
                    }
                }
                ```

                `toggleable` with `Role.Checkbox` instead of `clickable` also makes TalkBack announce it as
                "checkbox, ticked" or "not ticked", which is the second thing the scanner would flag next.
                Give the row a content description with the habit name, so it's "Read 10 pages, checkbox,
                not ticked" rather than just "checkbox".
                """
            )
        ),
        u("Launch-day checklist, please. Bullets. I'll be doing this between the Kita drop-off and my 9:00 stand-up."),
        a(
            w(
                r"""
                Launch morning, in order:

                - Check that 1.0.0 shows "Ready to publish" under *Publishing overview*
                - Press **Publish**, with the staged rollout percentage set on the production release
                - Open the store listing on your own phone (logged in with a non-tester account if you can),
                  check the screenshots, the price on the paywall and that the 14-day trial shows
                - Buy Pro with a real card on your own account, then cancel it in the Play Store
                  subscriptions screen: the only way to see the whole real flow once
                - Post the link: Kita group, family, the team at work (Matthias will spread it anyway)
                - At lunch: *Android vitals → Overview* and *Crashes and ANRs*, filtered to version 1.0.0
                - Evening: *Statistics → Installs* and the first reviews. Reply to every review for the
                  first few weeks, good and bad

                And don't change anything else that day. No hotfix for a cosmetic issue on launch day;
                write it down for 1.0.1.
                """
            )
        ),
    ],
)

S10 = Session(
    "2026-09-29T04:15:00Z",
    [
        u(
            w(
                r"""
                Launch day!! 1.0.0 approved on Friday, sitting in managed publishing. One change to your
                plan: I'm starting the production rollout at 20%, not 5%. I looked at the maths: if a few
                hundred people find the app in the first days, 5% is a dozen people, which tells me nothing
                and mainly makes launch day feel like it didn't happen. 20% now, 50% on Thursday, 100% next
                Monday if vitals are fine.
                """
            ),
            key="ku-rollout-new",
        ),
        a(
            w(
                r"""
                That's a reasonable change. The reason for a tiny first step is to limit damage from a bad
                crash, and you've had fifteen testers on close-to-final builds for over a month, so the risk
                of a launch-day disaster is lower than usual. The 20% is also only about who can see a new
                app, so the "damage" of a bad 20% is small in absolute numbers.

                Your schedule:

                - 2026-09-29: 20%
                - 2026-10-01: 50%, if no new crash cluster
                - 2026-10-05: 100%

                One thing that changes with a higher first step: keep halting in mind. If a new crash shows
                up in vitals on day one, halt first and investigate second. A halt is free and reversible.
                """
            )
        ),
        u(
            "What's new text for 1.0.0 please, English and German. It's the first public version so it's more "
            "of a hello."
        ),
        a(
            w(
                r"""
                English (about 300 characters):

                ```text
                Streakwise is here!

                Track the habits that matter to you, tick them off in a tap and watch your streaks grow.
                Set a daily reminder at your time. With Pro: streak freezes that save a streak on a bad day,
                and a home-screen widget.

                Questions or ideas? Settings > Send feedback. I read every message.
                ```

                German (about 340 characters):

                ```text
                Streakwise ist da!

                Behalte die Gewohnheiten im Blick, die dir wichtig sind: mit einem Tipp abhaken und die
                Serie wachsen sehen. Tägliche Erinnerung zu deiner Zeit. Mit Pro: Serien-Freezes retten deine
                Serie an einem schlechten Tag, dazu ein Widget für den Startbildschirm.

                Fragen oder Ideen? Einstellungen > Feedback senden. Ich lese jede Nachricht.
                ```

                Both plain text, so they'll paste straight into the console. "I read every message" is true
                for a solo developer, and it makes people more likely to write instead of leaving a
                one-star review.
                """
            )
        ),
        u(
            w(
                r"""
                Published. 20%. I'm weirdly calm. Something for the next few weeks: now that I'll be
                releasing more often, I'd like the release workflow to upload the bundle to the internal
                testing track by itself, so I only click "promote" in the console. You said Gradle Play
                Publisher earlier. Can you set that up? The service account is done, JSON key in 1Password,
                with access to testing tracks only.
                """
            )
        ),
        a(
            w(
                r"""
                Here's the setup, then. Three parts: the plugin in the build, the key as a secret, and one
                changed step in the workflow.

                **1. Version catalog** (`gradle/libs.versions.toml`, the relevant lines):

                ```toml
                [versions]
                play-publisher = "3.12.1"

                [plugins]
                play-publisher = { id = "com.github.triplet.play", version.ref = "play-publisher" }
                ```

                **2. The whole `app/build.gradle.kts`:**

                ```kotlin
                import java.util.Properties

                plugins {
                    alias(libs.plugins.android.application)
                    alias(libs.plugins.kotlin.android)
                    alias(libs.plugins.kotlin.compose)
                    alias(libs.plugins.ksp)
                    alias(libs.plugins.room)
                    alias(libs.plugins.play.publisher)
                }

                val keystoreProperties = Properties().apply {
                    val file = rootProject.file("keystore.properties")
                    if (file.exists()) file.inputStream().use { load(it) }
                }

                fun signingValue(key: String, env: String): String? =
                    keystoreProperties.getProperty(key) ?: System.getenv(env)

                android {
                    namespace = "com.lowtide.streakwise"
                    compileSdk = 36

                    defaultConfig {
                        applicationId = "com.lowtide.streakwise"
                        minSdk = 26
                        targetSdk = 36
                        versionCode = 11
                        versionName = "1.0.1"
                        testInstrumentationRunner = "androidx.test.runner.AndroidJUnitRunner"
                    }

                    signingConfigs {
                        create("release") {
                            val storePath = signingValue("storeFile", "STREAKWISE_STORE_FILE")
                            if (storePath != null) {
                                storeFile = file(storePath)
                                storePassword = signingValue("storePassword", "STREAKWISE_STORE_PASSWORD")
                                keyAlias = signingValue("keyAlias", "STREAKWISE_KEY_ALIAS")
                                keyPassword = signingValue("keyPassword", "STREAKWISE_KEY_PASSWORD")
                            }
                        }
                    }

                    buildTypes {
                        release {
                            isMinifyEnabled = true
                            isShrinkResources = true
                            proguardFiles(
                                getDefaultProguardFile("proguard-android-optimize.txt"),
                                "proguard-rules.pro",
                            )
                            signingConfig = signingConfigs.getByName("release")
                        }
                        debug {
                            applicationIdSuffix = ".debug"
                            versionNameSuffix = "-debug"
                        }
                    }
                    compileOptions {
                        sourceCompatibility = JavaVersion.VERSION_17
                        targetCompatibility = JavaVersion.VERSION_17
                    }
                    kotlinOptions {
                        jvmTarget = "17"
                    }
                    buildFeatures {
                        compose = true
                        buildConfig = true
                    }
                    sourceSets {
                        getByName("test").assets.srcDir("$projectDir/schemas")
                        getByName("androidTest").assets.srcDir("$projectDir/schemas")
                    }
                    testOptions {
                        unitTests {
                            isIncludeAndroidResources = true
                        }
                    }
                }

                room {
                    schemaDirectory("$projectDir/schemas")
                }

                play {
                    // the key file is written by CI; locally the tasks are simply never run
                    serviceAccountCredentials.set(rootProject.file("play-service-account.json"))
                    track.set("internal")
                    defaultToAppBundles.set(true)
                    releaseStatus.set(com.github.triplet.gradle.androidpublisher.ReleaseStatus.COMPLETED)
                }

                dependencies {
                    implementation(platform(libs.androidx.compose.bom))
                    implementation(libs.androidx.compose.material3)
                    implementation(libs.androidx.activity.compose)
                    implementation(libs.androidx.lifecycle.viewmodel.compose)
                    implementation(libs.androidx.lifecycle.runtime.compose)
                    implementation(libs.androidx.room.runtime)
                    implementation(libs.androidx.room.ktx)
                    implementation(libs.androidx.work.runtime.ktx)
                    implementation(libs.androidx.glance.appwidget)
                    implementation(libs.billing.ktx)
                    ksp(libs.androidx.room.compiler)
                    testImplementation(libs.junit)
                    testImplementation(libs.robolectric)
                    testImplementation(libs.androidx.room.testing)
                    testImplementation(libs.androidx.test.core)
                    testImplementation(libs.androidx.test.ext.junit)
                    androidTestImplementation(libs.androidx.room.testing)
                    androidTestImplementation(libs.androidx.test.runner)
                    androidTestImplementation(libs.androidx.test.ext.junit)
                }
                ```

                Add `play-service-account.json` to `.gitignore` next to the keystore lines.

                **3. Secret and workflow.** New repository secret `PLAY_SERVICE_ACCOUNT_JSON` with the whole
                JSON file as its value (it's text already, no base64 needed). The whole
                `.github/workflows/release.yml`:

                ```yaml
                name: release

                on:
                  push:
                    tags:
                      - "v*"
                  workflow_dispatch:

                permissions:
                  contents: read

                jobs:
                  bundle:
                    runs-on: ubuntu-latest
                    timeout-minutes: 30
                    steps:
                      - uses: actions/checkout@v4

                      - uses: actions/setup-java@v4
                        with:
                          distribution: temurin
                          java-version: "17"

                      - uses: gradle/actions/setup-gradle@v4
                        with:
                          cache-read-only: false

                      - name: Decode upload keystore
                        env:
                          UPLOAD_KEYSTORE_BASE64: ${{ secrets.UPLOAD_KEYSTORE_BASE64 }}
                        run: |
                          echo "$UPLOAD_KEYSTORE_BASE64" | base64 --decode > "$RUNNER_TEMP/upload.jks"
                          echo "STREAKWISE_STORE_FILE=$RUNNER_TEMP/upload.jks" >> "$GITHUB_ENV"

                      - name: Write Play credentials
                        env:
                          PLAY_SERVICE_ACCOUNT_JSON: ${{ secrets.PLAY_SERVICE_ACCOUNT_JSON }}
                        run: echo "$PLAY_SERVICE_ACCOUNT_JSON" > play-service-account.json

                      - name: Test, build and publish to internal
                        env:
                          STREAKWISE_STORE_PASSWORD: ${{ secrets.UPLOAD_STORE_PASSWORD }}
                          STREAKWISE_KEY_ALIAS: ${{ secrets.UPLOAD_KEY_ALIAS }}
                          STREAKWISE_KEY_PASSWORD: ${{ secrets.UPLOAD_KEY_PASSWORD }}
                        run: ./gradlew testReleaseUnitTest :app:publishReleaseBundle

                      - name: Keep bundle and mapping
                        uses: actions/upload-artifact@v4
                        with:
                          name: streakwise-${{ github.ref_name }}
                          path: |
                            app/build/outputs/bundle/release/app-release.aab
                            app/build/outputs/mapping/release/mapping.txt
                          retention-days: 90

                      - name: Remove secrets from disk
                        if: always()
                        run: rm -f "$RUNNER_TEMP/upload.jks" play-service-account.json
                ```

                `publishReleaseBundle` builds, signs and uploads the bundle together with `mapping.txt`, so
                crashes from those builds are deobfuscated in the console without you doing anything. The
                artifact step stays, so you still have your own copy of every tagged bundle.

                Release notes: the plugin reads them from
                `app/src/main/play/release-notes/en-US/default.txt` and `.../de-DE/default.txt`. That's a
                good place to keep your plain-text notes under version control.

                Cost: it's a Gradle plugin, so 0 KB in the APK. And no Ruby anywhere.
                """
            ),
            key="ci-publish",
        ),
        u(
            w(
                r"""
                Evening report: 212 installs by 21:00, which is ten times more than I expected at 20%.
                Mostly Germany, some Austria, weirdly 9 from Brazil. First review: 4 stars, "nice and simple,
                but the widget is blinding at night, please add dark mode". No crashes. Jonas made a cake with
                a streak counter on it in icing. "Day 1".
                """
            )
        ),
        a(
            w(
                r"""
                212 on launch day at 20% is a great start, and a 4-star review asking for a dark widget is
                the best kind of first review: it means someone put it on their home screen.

                The dark widget is a small fix if the widget uses `GlanceTheme` colours rather than fixed
                ones: `GlanceTheme.colors.widgetBackground` and `GlanceTheme.colors.onSurface` follow the
                system's dark mode (and Material You colours on Android 12+) automatically. If Kofi's design
                has hard-coded colours, give him the job of defining a dark palette, and pass both palettes
                in with `ColorProviders(light = ..., dark = ...)`. That sounds like 1.0.1.

                Reply to the review once it's shipped ("dark widget is in 1.0.1, thanks for the nudge"). On
                Play, the reviewer gets a notification, and updated reviews often go up a star.

                And the cake deserves a screenshot in the store listing. Enjoy the evening.
                """
            )
        ),
        u(
            w(
                r"""
                Second review came in while I was reading your answer: 2 stars, "no sync between my phone
                and tablet, in 2026??". Fair, but that's a backend I don't want to run. How do I reply
                without sounding defensive?
                """
            )
        ),
        a(
            w(
                r"""
                Reply briefly, say what's true, and say what they *can* do today. Something like:

                ```text
                Thanks for trying Streakwise! Sync is a fair wish. Right now everything stays on your device
                on purpose: no account, no server, no data leaving your phone. Your habits are included in
                Android's backup, so they move with you to a new phone. Multi-device sync is on my list, and
                I'll reply here if it arrives.
                ```

                That's about 390 characters; Play allows 350 for a reply, so trim "on purpose" and "on my
                list" sentences a little. A few principles for replies in general:

                - Don't argue about the stars. People change ratings when they feel heard, not when they're
                  corrected.
                - Turn the limitation into the reason someone else will install: "no account, no server" is
                  a feature for a lot of people.
                - Never promise a date. "On my list" is honest; "coming soon" becomes a one-star review in
                  three months.

                And the privacy angle belongs in the store description too, if it isn't there yet. "No
                account, no ads, your data stays on your phone" is a line a lot of habit-app users look for.
                """
            )
        ),
        u('It\'s in the short description already: "Simple habit tracker. No account, no ads, your data stays yours."'),
        a(
            "That's 65 characters, well inside the 80 limit, and it says the three things that matter. Leave it "
            "alone until you have a reason from the numbers to change it."
        ),
    ],
)

S11 = Session(
    "2026-10-08T04:50:00Z",
    [
        u(
            w(
                r"""
                Nine days in. Rollout went to 100% on Monday as planned. Numbers so far: 1,140 installs,
                63 trials started, 14 people already paying (most trials haven't ended yet, since they're
                14 days). Crash rate in vitals 0.21%. Reviews average 4.5.

                Now the thing I've been itching to do: test the price. My gut says €2.49 a month is too
                cheap, that people who want Pro would pay €3.49 just as happily. The Play Console has a
                "Price experiments" page. Can I use that?
                """
            )
        ),
        a(
            w(
                r"""
                Great numbers for week one. 63 trials from 1,140 installs is a 5.5% trial rate, which is
                healthy for a freemium habit app.

                On the console feature: Play's **price experiments only work for one-time in-app
                products**, not for subscriptions. For a subscription price test you build the split
                yourself. It's not much work:

                - Create a second monthly base plan on `streakwise_pro`: `monthly-349` at €3.49, with the
                  same 14-day trial offer. The existing `monthly` stays at €2.49.
                - On first launch the app assigns each install to an arm, 50/50, and remembers it.
                - The paywall shows the monthly plan of that arm. The yearly plan stays €19.99 for everyone,
                  so only one thing changes.

                You have no analytics, and adding some just for this would change your Data safety answers,
                so here's the trick: with a 50/50 split of installs, you don't need to count paywall views.
                Both arms get the same traffic, so you can compare **trials started and paid conversions per
                base plan** directly. The Play Console shows both per base plan under *Monetise →
                Subscriptions → streakwise_pro*. Revenue per arm is then just paying users × price.

                The assignment code. No new dependency: SharedPreferences and `MessageDigest` are in the
                platform, so 0 KB:

                ```kotlin
                // billing/PaywallExperiment.kt
                package com.lowtide.streakwise.billing

                import android.content.Context
                import java.security.MessageDigest
                import java.util.UUID

                object PaywallExperiment {
                    private const val PREFS = "experiments"
                    private const val KEY_INSTALL_ID = "install_id"
                    private const val SALT = "paywall-2026-10"

                    enum class Arm(val monthlyBasePlan: String) {
                        CONTROL("monthly"),
                        HIGHER("monthly-349"),
                    }

                    fun installId(context: Context): String {
                        val prefs = context.getSharedPreferences(PREFS, Context.MODE_PRIVATE)
                        return prefs.getString(KEY_INSTALL_ID, null)
                            ?: UUID.randomUUID().toString().also {
                                prefs.edit().putString(KEY_INSTALL_ID, it).apply()
                            }
                    }

                    fun armFor(installId: String): Arm {
                        val digest = MessageDigest.getInstance("SHA-256")
                            .digest("$SALT:$installId".toByteArray())
                        return if (digest[0].toInt() and 1 == 0) Arm.CONTROL else Arm.HIGHER
                    }

                    fun arm(context: Context): Arm = armFor(installId(context))
                }
                ```

                And in `PlayBillingProAccess.loadOffers()`, filter the monthly base plans down to the
                arm's one:

                ```kotlin
                val arm = PaywallExperiment.arm(context)
                val plans = details.subscriptionOfferDetails.orEmpty()
                    .filter { it.basePlanId == "yearly" || it.basePlanId == arm.monthlyBasePlan }
                ```

                Why hash with a salt instead of `Random`: the assignment is a pure function of the install
                ID, so it's stable across restarts and testable. The salt means a future experiment (with a
                new salt) splits people differently, instead of the same half always getting the "B"
                version of everything.

                Two caveats:

                - Existing installs get assigned too. People who already saw €2.49 and come back might see
                  €3.49. That's allowed, but if someone writes "the price went up", be honest: you're testing
                  prices. Subscribers who already pay are never affected.
                - `Backup` copies SharedPreferences, so an install restored on a new phone keeps its arm.
                  That's actually what you want.
                """
            ),
            key="pay-exp",
        ),
        u(
            "Quick check on the experiment: the install ID is a new identifier. Does that change my Data safety "
            "answers? I don't want to be that developer."
        ),
        a(
            w(
                r"""
                Good instinct, and no, not as it's built. Data safety is about data that is **collected**
                (sent off the device) or **shared** (given to third parties). The install ID:

                - is generated on the device, with `UUID.randomUUID()`, not derived from any hardware ID
                - is stored in the app's private SharedPreferences
                - never leaves the phone: the only thing that leaves is the purchase of a base plan, which
                  goes to Google Play like any purchase

                So nothing new is collected, and your "No data collected" stays correct. What *would*
                change it: logging the arm or the install ID to a server, or adding an analytics SDK to
                count paywall views. That's exactly why the test compares base plans in the console instead
                of counting views.

                One line for the privacy policy wouldn't hurt though, for honesty: "The app may show
                different prices to different users to test pricing; this happens on your device and no
                data is sent to the developer." It's the kind of thing a careful user appreciates finding.
                """
            )
        ),
        u(
            w(
                r"""
                Set up, both base plans live. Before it starts I want the paywall to have a third thing on
                it, because "freezes and a widget" feels thin for €3.49: CSV export of all your habits and
                check-ins, Pro only. People in the reviews have asked "what happens to my data if I stop
                using this", and export is the answer.
                """
            ),
            key="mt-pro-export",
        ),
        a(
            w(
                r"""
                Good addition, and "your data is yours" is a strong reason to pay on its own. The Storage
                Access Framework does the heavy lifting: the user picks where to save (Downloads, Drive,
                anywhere), you get a `Uri`, you write to it. No storage permission, and no new dependency,
                so 0 KB.

                ```kotlin
                // export/CsvExporter.kt
                package com.lowtide.streakwise.export

                class CsvExporter(
                    private val habitDao: HabitDao,
                    private val checkInDao: CheckInDao,
                ) {
                    suspend fun writeTo(resolver: ContentResolver, uri: Uri) = withContext(Dispatchers.IO) {
                        val habits = habitDao.all().associateBy { it.id }
                        val checkIns = checkInDao.all()
                        resolver.openOutputStream(uri, "wt")!!.bufferedWriter(Charsets.UTF_8).use { out ->
                            out.write("\uFEFF") // BOM, so Excel opens umlauts correctly
                            out.write("habit,date,archived\r\n")
                            for (c in checkIns.sortedWith(compareBy({ it.habitId }, { it.day }))) {
                                val habit = habits[c.habitId] ?: continue
                                out.write(csv(habit.name))
                                out.write(",")
                                out.write(LocalDate.ofEpochDay(c.day).toString())
                                out.write(",")
                                out.write(if (habit.archived) "yes" else "no")
                                out.write("\r\n")
                            }
                        }
                    }

                    private fun csv(value: String): String =
                        if (value.any { it == ',' || it == '"' || it == '\n' || it == '\r' }) {
                            "\"" + value.replace("\"", "\"\"") + "\""
                        } else {
                            value
                        }
                }
                ```

                In the settings screen:

                ```kotlin
                val launcher = rememberLauncherForActivityResult(
                    ActivityResultContracts.CreateDocument("text/csv"),
                ) { uri ->
                    if (uri != null) viewModel.export(context.contentResolver, uri)
                }

                SettingsRow(
                    title = stringResource(R.string.export_csv),
                    locked = !isPro,
                    onClick = { launcher.launch("streakwise-${LocalDate.now()}.csv") },
                )
                ```

                Details that matter for a German audience:

                - The **BOM** at the start makes Excel read the file as UTF-8. Without it, "Gemüse essen"
                  turns into "GemÃ¼se essen".
                - German Excel expects **semicolons** as separators, because the comma is the decimal
                  separator. With commas, everything lands in column A. Options: write `sep=,` as the first
                  line (Excel honours it, other tools show it as a junk row) or use semicolons when the
                  device locale is German. I'd use semicolons for German locales: Numbers, LibreOffice and
                  Google Sheets all handle either when importing.
                - Dates as ISO `2026-10-08`, which every spreadsheet recognises.

                `CsvExporter` goes into the `AppContainer` like the repository.
                """
            )
        ),
        u("Semicolons for German locales, yes, Jonas tried it with commas and got column A. Now the paywall copy."),
        a(
            w(
                r"""
                Here's the paywall, top to bottom, in English first. It's written to work at either price,
                since the price line comes from Play:

                ```text
                Keep every streak alive

                Streakwise Pro

                ❄  Streak freezes
                   Miss a day without losing your streak. Earn a freeze for every 7 days in a row.

                ▦  Home-screen widget
                   Tick off today's habits without opening the app. Light and dark.

                ⤓  Export everything
                   All your habits and check-ins as a CSV file. Your data stays yours.

                [ Try 14 days free ]
                then {monthly_price} a month, cancel anytime

                or {yearly_price} a year, that's {yearly_per_month} a month

                Restore purchase · Terms · Privacy
                ```

                Notes on the choices:

                - **The headline is the outcome, not the product.** "Keep every streak alive" is what people
                  want; "Streakwise Pro" is just the label underneath.
                - **The trial is the button.** Putting "Try 14 days free" on the button and the price
                  underneath is standard and allowed, as long as the price after the trial is clearly
                  visible on the same screen. Google's subscription policy requires that, and it's enforced at
                  review.
                - `{yearly_per_month}` is the yearly price divided by 12, formatted in the user's currency.
                  At €19.99 that's €1.67 a month, which makes the yearly plan look very good next to either
                  monthly price. That anchor may matter more in the experiment than the monthly price
                  itself.
                - "Restore purchase" is nearly useless on Android (Play restores automatically), but people
                  look for it, and without it they write emails.

                The glyphs are placeholders for Kofi's icons, not text in the UI.
                """
            ),
            key="pay-copy",
        ),
        u("Copy's in. What do I put in git for the three pieces?"),
        a(
            w(
                r"""
                Three commits, in the order you'd want to revert them:

                ```text
                feat(export): export habits and check-ins as csv for pro

                Uses the storage access framework, writes a UTF-8 BOM and switches
                to semicolons for German locales so Excel splits the columns.
                ```

                ```text
                feat(billing): split monthly plan between two prices

                Assigns each install to an arm by hashing a stored install id with
                the experiment salt. The yearly plan is the same for everyone.
                ```

                ```text
                feat(paywall): rewrite paywall around three pro features
                ```

                The second one deserves its body. In six months you'll look at `PaywallExperiment` and
                wonder why it's there.
                """
            )
        ),
        u(
            w(
                r"""
                Thanks. Life update: the merge at work is official, policy and claims become one team in
                January, and my new manager will be Sabine from policy, who everyone says is great but likes
                8:30 meetings. So my quiet hour may shrink. Also Mats has his first Kita cold, which means
                everyone in the house will have it by Sunday.
                """
            )
        ),
        a(
            "Sorry about the cold, it's a rite of passage that takes the whole household down with it. For the "
            "experiment, the good news is that it needs nothing from you: it runs while you sleep badly. How "
            "long were you thinking of letting it run?"
        ),
        u("Two weeks? I'd like to decide before the end of October."),
        a(
            w(
                r"""
                Two weeks is the minimum I'd accept, and here's the honest maths on what it can tell you.

                - You're at roughly 120 installs a day now. In 12 days that's about 1,400 installs, 700 per
                  arm.
                - At your current 5.5% trial rate, about 38 trials per arm, and maybe 40% of trials convert:
                  about 15 paying users per arm.
                - With 15 versus, say, 12, no statistical test will call a winner. The noise at those
                  numbers is about ±4.

                So don't decide on "is the conversion difference significant". It won't be. Decide on
                **revenue per install**, with a rule fixed in advance:

                - If €3.49 brings at least as much revenue per install as €2.49, **and** its trial rate
                  isn't dramatically lower (say, not below 70% of the control's), switch to €3.49.
                - Otherwise keep €2.49.

                Writing the rule down now stops you from reading the numbers however you feel on the day.
                Also: trials take 14 days to convert, so trials started on 2026-10-20 only convert on
                2026-11-03. If you decide on the 20th, you'll decide on trial starts plus the conversions
                you have, which is fine as long as both arms are treated the same way.
                """
            )
        ),
    ],
)

S12 = Session(
    "2026-10-20T04:35:00Z",
    [
        u(
            w(
                r"""
                Experiment day. Since 2026-10-08, from the console and my own counting:

                ```text
                installs in the period: 1,512 (split should be ~756/756)
                monthly (€2.49):     trials 41, converted 16, still in trial 14
                monthly-349 (€3.49): trials 36, converted 14, still in trial 13
                yearly (€19.99):     trials 22 in arm A, 29 in arm B, converted 7 and 11
                ```

                Interesting that yearly went up in the €3.49 arm. Everyone in the house has had the cold now,
                I'm writing this with a tea and a box of tissues.
                """
            )
        ),
        a(
            w(
                r"""
                Get well soon. Here's what the numbers say, in the order of our rule from two weeks ago.

                **Trial rate (trial starts per arm)**
                - €2.49 arm: 41 monthly + 22 yearly = 63
                - €3.49 arm: 36 monthly + 29 yearly = 65
                - Same overall. The higher monthly price moved people to yearly rather than away.

                **Revenue per install, from paid conversions so far** (monthly counted as one month, yearly
                as the full year, since that's what's been charged)
                - €2.49 arm: 16 × €2.49 + 7 × €19.99 = €39.84 + €139.93 = €179.77, over ~756 installs:
                  about €0.24 per install
                - €3.49 arm: 14 × €3.49 + 11 × €19.99 = €48.86 + €219.89 = €268.75, over ~756 installs:
                  about €0.36 per install

                **Against the rule**
                - Revenue per install is higher at €3.49: yes, by about half
                - Trial rate not below 70% of control: yes, it's equal

                **Caveats**
                - The yearly effect is the biggest driver, and it's a small sample (7 vs 11 conversions).
                  Part of it may be chance. But the direction is what pricing theory predicts: a dearer
                  monthly plan makes the yearly anchor (€1.67 a month) look better.
                - 27 trials are still running. They'll convert at the same rate in both arms unless something
                  odd happens.
                - Store fees are the same percentage in both arms, so they don't change the comparison.
                  (Play takes 15% on subscriptions, so your net is €2.97 per month at €3.49.)

                By the rule you set yourself: **switch to €3.49**.
                """
            )
        ),
        u(
            w(
                r"""
                Decision made: monthly Pro is €3.49 for everyone from today. Yearly stays at €19.99 for now,
                I like it looking like a bargain. What happens to the 16 people paying €2.49, and how do I
                switch without breaking anything?
                """
            ),
            key="ku-price-new",
        ),
        a(
            w(
                r"""
                The cleanest way is to keep both base plans and just stop offering the cheap one:

                - **Existing €2.49 subscribers stay on the `monthly` base plan at €2.49.** You don't have to
                  do anything for that. If you ever *raise* an existing base plan's price in the console, Play
                  asks whether current subscribers keep their old price (a "legacy price cohort") or move to
                  the new one with notice and, for increases, an opt-in in many countries. Keeping them at
                  €2.49 costs you about €16 a month and earns a lot of goodwill from your earliest users.
                - **New purchases all go to `monthly-349`.** In the app, drop the experiment and hard-wire
                  the plan.
                - **Don't deactivate `monthly`** while people are subscribed to it. Deactivating a base
                  plan stops new purchases but keeps renewals; you could do it for tidiness, since the app no
                  longer shows it anyway.

                The code change, with `PaywallExperiment` kept (the install ID is useful for the next
                experiment) but the arm no longer used:

                ```kotlin
                // billing/PlayBillingProAccess.kt, in loadOffers()
                private const val MONTHLY_BASE_PLAN = "monthly-349"

                val plans = details.subscriptionOfferDetails.orEmpty()
                    .filter { it.basePlanId == "yearly" || it.basePlanId == MONTHLY_BASE_PLAN }
                ```

                `handle()` doesn't change: it checks the product ID `streakwise_pro`, not the base plan, so
                subscribers on either monthly plan and on yearly are all Pro.

                Commit:

                ```text
                feat(billing): offer only the 3.49 monthly plan

                Ends the paywall price test in favour of monthly-349. Subscribers on
                the old monthly plan keep their price.
                ```

                And the what's new for the version with this change doesn't need to mention the price at
                all. Prices aren't release notes.
                """
            )
        ),
        u(
            w(
                r"""
                Wait, about that €2.97. Is that really what I get from €3.49? The prices in the console are
                what the customer pays, and in Germany that includes VAT, no?
                """
            )
        ),
        a(
            w(
                r"""
                You're right, and I left VAT out. Sorry. For sales to consumers in the EU, Google Play is
                responsible for charging and paying the VAT, so the price the customer sees includes it and
                Google takes it off before the service fee. For Germany, with 19% VAT:

                - Customer pays: €3.49
                - VAT (19% included): €3.49 / 1.19 = €2.93 net of VAT, so €0.56 of VAT
                - Play's service fee, 15% of €2.93: €0.44
                - **You receive: about €2.49 per month**

                Funny enough, that's exactly the old gross price. For the old plan, the same calculation
                gives €2.49 / 1.19 × 0.85 = **€1.78**. For the yearly plan: €19.99 / 1.19 × 0.85 = **€14.28**
                a year. Austria (20% VAT) comes out a few cents lower.

                The experiment's conclusion doesn't change: VAT and the fee are the same percentage in both
                arms, so the ratio between them is the same, and €3.49 still wins by about half.

                One more thing for your tax adviser, since you earn a salary as well: the payouts from Google
                are business income, and because Google is the seller to the consumer for VAT purposes, your
                own invoices are to Google Ireland. That usually makes the small-business VAT question simpler,
                but have it confirmed rather than take my word for German tax law.
                """
            )
        ),
        u(
            w(
                r"""
                Done, 1.1.1 is building. One more thing from the console: a crash cluster that's new since
                1.1.0, a NullPointerException, 23 users, all in the widget:

                ```text
                java.lang.NullPointerException
                    at com.lowtide.streakwise.widget.StreakWidget$provideGlance$2.invokeSuspend(StreakWidget.kt:41)
                    at kotlin.coroutines.jvm.internal.BaseContinuationImpl.resumeWith(ContinuationImpl.kt:33)
                    at androidx.glance.session.SessionWorker$doWork$2.invokeSuspend(SessionWorker.kt:87)
                ```

                Line 41 is `val habit = container.habitRepository.byId(habitId)!!` in the new single-habit
                widget that Kofi designed for 1.1.0 (you pick one habit and the widget shows its streak big).
                My guess is people delete the habit and the widget is still on the home screen.
                """
            ),
            key="mt-crash-widget",
        ),
        a(
            w(
                r"""
                Your guess is right. The widget stores the habit ID in its Glance state, the habit gets
                deleted (or archived and then deleted), and the next widget update runs `!!` on a `null`.
                Because it runs in Glance's `SessionWorker`, the crash is in the background, and Android
                vitals counts it as a crash but not a user-perceived one. That's why your headline crash rate
                barely moved.

                The fix is to treat "habit gone" as a normal state the widget can show:

                ```kotlin
                // widget/SingleHabitWidget.kt
                class SingleHabitWidget : GlanceAppWidget() {

                    override val stateDefinition = PreferencesGlanceStateDefinition

                    override suspend fun provideGlance(context: Context, id: GlanceId) {
                        val container = (context.applicationContext as StreakwiseApp).container
                        val habitId = getAppWidgetState(context, stateDefinition, id)[HABIT_ID]
                        val habit = habitId?.let { container.habitRepository.byId(it) }
                        val streak = habit?.let { container.habitRepository.currentStreak(it.id) }

                        provideContent {
                            GlanceTheme {
                                when {
                                    habit == null -> HabitGone()        // "Tap to choose a habit"
                                    habit.archived -> HabitArchived(habit)
                                    else -> BigStreak(habit, streak ?: 0)
                                }
                            }
                        }
                    }

                    companion object {
                        val HABIT_ID = longPreferencesKey("habit_id")
                    }
                }
                ```

                `HabitGone()` should open the widget's configuration activity when tapped, so the user can
                pick another habit instead of removing and re-adding the widget.

                And to keep widgets from going stale in the first place, update them when a habit is
                deleted:

                ```kotlin
                suspend fun deleteHabit(id: Long) {
                    habitDao.delete(id)
                    SingleHabitWidget().updateAll(context)
                    StreakWidget().updateAll(context)
                }
                ```

                A rule worth adopting from this: no `!!` on anything that comes from the database. Room
                returning `null` is always a real possibility, because the data can change between the
                moment you stored an ID and the moment you read it. There's a detekt rule for `!!`
                (`UnsafeCallOnNullableType`) if you want CI to enforce it.
                """
            )
        ),
        u("Shipped in 1.1.1 together with the price change. That's three crashes fixed since the closed test started."),
        a(
            w(
                r"""
                Three, and each one left something behind:

                - The `sort_order` migration crash: migration tests on Robolectric in CI
                - The exact-alarm `SecurityException`: the `canScheduleExactAlarms()` check and the
                  permission flow
                - The widget `NullPointerException`: no `!!` on database results

                That's a good trade for three bad mornings.
                """
            )
        ),
        u("What's new for 1.1.1, both languages? It has the widget fix and nothing else users would notice."),
        a(
            w(
                r"""
                English (about 150 characters):

                ```text
                Fixed: the single-habit widget could stop working after you deleted its habit. It now asks
                you to pick another one instead. Thanks for the reports!
                ```

                German (about 170 characters):

                ```text
                Behoben: Das Einzel-Widget konnte nach dem Löschen seiner Gewohnheit hängen bleiben. Jetzt
                kannst du einfach eine andere auswählen. Danke für eure Meldungen!
                ```

                Short, plain text, and it describes what the user sees rather than the cause. The price
                change stays out of it, as agreed.
                """
            )
        ),
        u(
            "Kofi finished the German screenshot set, with captions outside the phone frame as you suggested, so "
            "the English set is just a caption swap. He's quick. Costs me €40 an hour, four hours a week."
        ),
        a(
            "Four hours a week at €40 is €160 a week, around €690 a month. At about €2.49 net per monthly "
            "subscriber (and €14.28 a year per yearly one), that's roughly 277 monthly subscribers' worth, a "
            "useful number to keep in mind when you plan his next job. Captions outside the frame were a good "
            "call: next time you add a language, it's a text job."
        ),
    ],
)

S13 = Session(
    "2026-10-29T05:05:00Z",
    [
        u(
            w(
                r"""
                Month one wrap-up. 2,380 installs, 41 paying subscribers (23 monthly, 18 yearly), crash
                rate 0.18% over 28 days, 4.6 stars from 57 ratings. Not life-changing money but it pays for
                Kofi and then some, which was the goal.

                Two things today. First: we're going to the Baltic coast for the autumn holidays, Jonas's
                parents have a flat in Warnemünde, and I am not touching the app for eight days. What should
                I set up so nothing burns while I'm gone?
                """
            )
        ),
        a(
            w(
                r"""
                Congratulations: paying for your designer from month one is genuinely good for a solo app.

                For eight days away:

                - **Don't release anything in the last three days before you leave.** A crash from a
                  release on Thursday shows up on Saturday.
                - **Halt nothing, start nothing.** If a staged rollout is in progress, either finish it to
                  100% before you go or halt it. Don't leave one at 50% without anyone watching.
                - **Email alerts**: in the Play Console, *Settings → Notifications*, turn on email for "Android
                  vitals: new issues" and "Reviews". You'll see if something serious happens without opening
                  the console.
                - **Auto-reply on the feedback address**: "I'm away until 2026-11-09, I'll reply when I'm
                  back." Saves you from eight days of "hello??".
                - **Check the subscription setup once**: the `monthly-349` and `yearly` base plans active,
                  the trial offer active on both. Nothing changes on its own, but it's the one thing that
                  loses money silently.
                - **Know your emergency lever.** From the Play Console app on your phone you can halt a
                  rollout and reply to reviews. You can't build anything, and that's fine.
                - **GitHub**: nothing to do. No scheduled workflows, nothing runs without a tag.

                Then leave the laptop at home.
                """
            )
        ),
        u(
            w(
                r"""
                Laptop stays home, Jonas will check my bag. Second thing: 1.2. The most requested feature is
                notes on a check-in ("ran 5 km, knee hurt"). That's a schema change, so version 6. Don't
                write the code yet, I'll do it after the holidays. I just want the plan, so I can think about
                it at the beach.
                """
            )
        ),
        a(
            w(
                r"""
                Here's the plan for notes, following the same four-part routine as every schema bump:

                **Schema**
                - Add a nullable `note TEXT` column to `check_ins`. Nullable, because most check-ins won't
                  have one. This is the easy case: `ALTER TABLE check_ins ADD COLUMN note TEXT`, with the
                  entity field `val note: String? = null`. Nullable on both sides, no default, so entity and
                  SQL agree. (Compare the `sort_order` crash, where they didn't.)
                - Limit the length in the UI (say 280 characters), not in SQLite.

                **The routine**
                - `@Database(version = 6)`
                - `MIGRATION_5_6` in `Migrations.kt`, appended to `ALL_MIGRATIONS`
                - `schemas/.../6.json` committed
                - A test case next to the others in `MigrationTest`: create at 5, insert a check-in, migrate,
                  assert the check-in is still there with a `null` note

                **Product questions for the beach**
                - Free or Pro? I'd make notes free: they make the app stickier, and the export (Pro) becomes
                  more valuable when there's more in it.
                - Do notes go into the CSV export? Then it needs a fourth column, and quoting matters more:
                  notes will have commas and line breaks. `csv()` already handles both.
                - Does the widget show anything? Probably not. Widgets should stay glanceable.

                **Release**
                - Closed test first for a week (your 15 testers are still opted in), then production at 20%,
                  as at launch.
                """
            )
        ),
        u(
            w(
                r"""
                One more for the beach: Kofi has made two alternative icons (the current flame, a
                checkmark-in-a-circle, and a little sprouting plant) and wants to know which one makes more
                people install. Can Play test that, or is it the same story as the subscription prices?
                """
            )
        ),
        a(
            w(
                r"""
                This one Play does support: **store listing experiments** (*Grow users → Store listing
                experiments*). You can test the icon, the feature graphic, screenshots, the short and the
                full description, against your current listing, with up to three variants. Play splits
                store visitors between them and reports installs per variant, with a confidence interval.

                Setup for Kofi's icons:

                - **Experiment type**: default graphics experiment (all languages), or a localised one if
                  you only want to test in German. Since most of your traffic is German anyway, either works.
                - **Variants**: current flame as control, plus the checkmark and the plant. Three arms means
                  each gets a third of visitors.
                - **Metric**: "Retained first-time installers" rather than plain installers. It counts people
                  who installed and kept the app for at least a day, so an icon that attracts curious
                  deleters doesn't win.
                - **Minimum detectable effect**: Play asks for it and estimates how long the test needs.

                Important difference from your price test: the icon in the experiment only affects the
                *store page*. Once installed, everyone has the same launcher icon from the APK. If the plant
                wins, you then ship it in an app update and make it the listing icon for everyone.

                How long it takes depends entirely on visitors. What does *Statistics → Store listing
                visitors* say per day at the moment?
                """
            )
        ),
        u("About 400 store listing visitors a day, with 30% of them installing."),
        a(
            w(
                r"""
                Then roughly:

                - 400 visitors a day across three arms is about 133 per arm, about 40 installers per arm per
                  day at your 30% conversion.
                - To detect a difference of 10% relative (30% versus 33%), you need somewhere around 3,000
                  to 4,000 visitors per arm. That's four weeks.
                - To detect a big difference (20% relative, 30% versus 36%), about a week and a half.

                So: start it the day you get back, let it run the full four weeks, and don't peek on day
                three and call it. Icons rarely make a 20% difference, so a short test will mostly tell you
                "no clear winner". Two arms instead of three would halve the time, if Kofi can bring himself
                to drop one of his own designs.
                """
            )
        ),
        u(
            "He'll drop the checkmark, he said himself it looks like a to-do app. Jonas is calling, the car "
            "needs packing and someone has hidden all the left shoes."
        ),
        a(
            "Two arms it is: flame against plant, from 2026-11-09, four weeks. Good luck with the shoes; they're "
            "usually in the toy kitchen."
        ),
        u(
            "Perfect, that's beach material. Thank you for the last three months, seriously. I wouldn't have "
            "got past the 12-tester thing on my own without panicking."
        ),
        a(
            "You did the mornings; I just kept the lists. Enjoy Warnemünde, and say hi to the Baltic from me. "
            "When you're back: notes, version 6, four steps."
        ),
    ],
)

CHAT = Chat(
    name="ws-10-mobile-release",
    sessions=[S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11, S12, S13],
    questions=[
        Question("Upgrade Room to 2.7 for me.", "entire file", ["si-wholefile"], "standing-instruction"),
        Question(
            "I've sorted out the dark widget colours. What should the git log say?",
            "Conventional Commits",
            ["si-commits"],
            "standing-instruction",
        ),
        Question(
            "If the annual option were 30% below twelve months of the monthly one, what would it come to?",
            "give it in euros",
            ["si-euros"],
            "standing-instruction",
        ),
        Question(
            "Is there something that would make drawing the streak history charts easier?",
            "how many KB it adds to the release APK",
            ["si-apksize"],
            "standing-instruction",
        ),
        Question(
            "Draft the 1.2 blurb for the store page.",
            "under 400 characters",
            ["si-notes"],
            "standing-instruction",
        ),
        Question(
            "Set me up a 'dev' flavour with its own app id so it sits next to the store install.",
            "Kotlin DSL",
            ["s1-build"],
            "preference",
        ),
        Question(
            "How should the new stats screen's ViewModel get hold of the habit data?",
            "wire everything by hand",
            ["pref-di"],
            "preference",
        ),
        Question(
            "Lay out Glance against the old RemoteViews approach for a second widget.",
            "short bullet lists",
            ["pref-bullets"],
            "preference",
        ),
        Question(
            "What's the easiest way to automate pushing new images and description text to Google Play?",
            "not having Ruby in my toolchain",
            ["pref-noruby"],
            "preference",
        ),
        Question(
            "What's the oldest Android version Streakwise still installs on?",
            "26",
            ["ku-minsdk-new"],
            "knowledge-update",
            ["s1-build"],
        ),
        Question("How much does Pro cost per month now?", "€3.49", ["ku-price-new"], "knowledge-update", ["s3-price"]),
        Question(
            "How long does a tagged release take on CI these days?",
            "About 6 minutes",
            ["ku-build-new"],
            "knowledge-update",
            ["ku-build-old"],
        ),
        Question(
            "Who's doing my design work at the moment?",
            "Kofi Mensah",
            ["ku-designer-new"],
            "knowledge-update",
            ["s1-intro"],
        ),
        Question(
            "What date did we settle on for going live on Play?",
            "2026-09-29",
            ["ku-launch-new"],
            "knowledge-update",
            ["s1-intro"],
        ),
        Question("How long is the free trial on Pro?", "14 days", ["ku-trial-new"], "knowledge-update", ["s3-price"]),
        Question(
            "What percentage did the production rollout open at?",
            "20%",
            ["ku-rollout-new"],
            "knowledge-update",
            ["ku-rollout-old"],
        ),
        Question(
            "Which crashes have we fixed since the closed test began?",
            "IllegalStateException; SecurityException; NullPointerException",
            ["mt-crash-migration", "s8-crash", "mt-crash-widget"],
            "multi-turn",
        ),
        Question(
            "Which people I know did I get into the closed test?",
            "Ruth; Matthias; Agnieszka",
            ["mt-tester-ruth", "mt-tester-matthias", "mt-tester-agnieszka"],
            "multi-turn",
        ),
        Question(
            "What does a Pro subscription get you?",
            "streak freezes; home-screen widget; CSV export",
            ["mt-pro-freeze", "mt-pro-widget", "mt-pro-export"],
            "multi-turn",
        ),
        Question(
            "Who reported the reminders not showing up, and what phone is she on?",
            "Henrike; Galaxy A52",
            ["mt-reporter", "s8-crash"],
            "multi-turn",
        ),
        Question(
            "What do I do for a living outside the app?",
            "backend developer at an insurance company",
            ["s1-intro"],
            "single-fact",
        ),
        Question(
            "Where's the offline copy of my upload key?",
            "fire safe in the hallway cupboard",
            ["sf-keystore"],
            "single-fact",
        ),
        Question(
            "At what crash rate does Play start treating an app as misbehaving?",
            "1.09%",
            ["sf-threshold"],
            "single-fact",
        ),
        Question(
            "What's the column called that stores how many freezes a habit has?",
            "freeze_tokens",
            ["db-migration"],
            "code",
        ),
        Question(
            "What's the repository secret with the keystore in it called?",
            "UPLOAD_KEYSTORE_BASE64",
            ["ci-workflow"],
            "code",
        ),
        Question("What salt does the price-test bucketing hash with?", "paywall-2026-10", ["pay-exp"], "code"),
        Question(
            "Write the test for the notes migration, in the same style as the freeze one.",
            "MigrationTestHelper",
            ["db-migtest"],
            "request-context",
        ),
        Question("Translate the paywall into German.", "Keep every streak alive", ["pay-copy"], "request-context"),
        Question(
            "Have the tag build also create a GitHub release with the AAB attached.",
            "publishReleaseBundle",
            ["ci-publish"],
            "request-context",
        ),
    ],
)
