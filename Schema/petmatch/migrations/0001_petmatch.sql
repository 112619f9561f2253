-- petMatch: adoptable pets to swipe on. The catalogue (types, their breeds,
-- coats and colours) is rows, so that a pet's breeds and colour belong to
-- its type by foreign key; shelters and their staff own the pets; each
-- user's preferences choose their feed, their swipes are what they have
-- seen, and right swipes become favourites. The rules live here as well as
-- in the resolvers: only a shelter's staff write its pets, a shelter keeps
-- at least one staff member, only an adoptable pet takes a swipe, a
-- favourite is a right swipe (and a right swipe makes one), a preferred
-- breed belongs to the preferred type. Errors raised here carry the
-- SQLSTATEs PM001-PM005, which the API turns into answers.

-- Shelters are ordered by distance from the swiper (earthdistance over cube).
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;

CREATE TABLE pet_types (
    type text PRIMARY KEY CHECK (type ~ '^[A-Z_]+$'),
    name text NOT NULL,
    position integer NOT NULL UNIQUE
);
INSERT INTO pet_types (type, name, position) VALUES
    ('DOG', 'Dog', 1), ('CAT', 'Cat', 2), ('RABBIT', 'Rabbit', 3), ('SMALL_AND_FURRY', 'Small & Furry', 4),
    ('HORSE', 'Horse', 5), ('BIRD', 'Bird', 6), ('SCALES_FINS_AND_OTHER', 'Scales, Fins & Other', 7),
    ('BARNYARD', 'Barnyard', 8);

-- The coats a type can have (none for birds and reptiles).
CREATE TABLE pet_type_coats (
    type text NOT NULL REFERENCES pet_types,
    coat text NOT NULL CHECK (coat IN ('HAIRLESS', 'SHORT', 'MEDIUM', 'LONG', 'WIRE', 'CURLY')),
    PRIMARY KEY (type, coat)
);
INSERT INTO pet_type_coats (type, coat)
SELECT 'DOG', unnest(ARRAY['HAIRLESS', 'SHORT', 'MEDIUM', 'LONG', 'WIRE', 'CURLY'])
UNION ALL SELECT 'CAT', unnest(ARRAY['HAIRLESS', 'SHORT', 'MEDIUM', 'LONG'])
UNION ALL SELECT 'RABBIT', unnest(ARRAY['SHORT', 'LONG'])
UNION ALL SELECT 'SMALL_AND_FURRY', unnest(ARRAY['HAIRLESS', 'SHORT', 'LONG'])
UNION ALL SELECT 'HORSE', unnest(ARRAY['SHORT', 'LONG'])
UNION ALL SELECT 'BARNYARD', unnest(ARRAY['SHORT', 'LONG', 'CURLY']);

CREATE TABLE pet_type_colors (
    type text NOT NULL REFERENCES pet_types,
    color text NOT NULL CHECK (char_length(color) BETWEEN 1 AND 60),
    position integer NOT NULL,
    PRIMARY KEY (type, color)
);
INSERT INTO pet_type_colors (type, color, position)
SELECT t.type, c.color, c.position
FROM (VALUES
    ('DOG', ARRAY['Black', 'Brown / Chocolate', 'Golden', 'Red / Chestnut / Orange', 'Gray / Blue / Silver',
                  'White / Cream', 'Tricolor', 'Brindle', 'Merle', 'Bicolor']),
    ('CAT', ARRAY['Black', 'Gray / Blue / Silver', 'Orange / Red', 'White', 'Cream / Ivory', 'Tabby (Brown)',
                  'Tortoiseshell', 'Calico', 'Tuxedo', 'Seal Point']),
    ('RABBIT', ARRAY['Agouti', 'Black', 'Blue / Gray', 'Brown / Chocolate', 'Cream', 'White', 'Tortoise', 'Broken']),
    ('SMALL_AND_FURRY', ARRAY['Agouti', 'Black', 'Brown', 'Cream', 'Golden', 'Gray', 'White', 'Sable']),
    ('HORSE', ARRAY['Bay', 'Black', 'Chestnut', 'Dun', 'Gray', 'Palomino', 'Pinto', 'Roan']),
    ('BIRD', ARRAY['Blue', 'Green', 'Gray', 'Yellow', 'White', 'Mixed']),
    ('SCALES_FINS_AND_OTHER', ARRAY['Black', 'Brown', 'Green', 'Orange', 'Red', 'Yellow', 'Mixed']),
    ('BARNYARD', ARRAY['Black', 'Brown', 'White', 'Gray', 'Spotted'])
) AS t(type, colors)
CROSS JOIN LATERAL unnest(t.colors) WITH ORDINALITY AS c(color, position);

CREATE TABLE breeds (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    type text NOT NULL REFERENCES pet_types,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
    UNIQUE (type, name),
    -- What a pet's and a preference's (breed, type) foreign keys point at.
    UNIQUE (id, type)
);
INSERT INTO breeds (type, name)
SELECT t.type, unnest(t.names)
FROM (VALUES
    ('DOG', ARRAY['Beagle', 'Border Collie', 'Boxer', 'Chihuahua', 'Dachshund', 'German Shepherd Dog', 'Golden Retriever',
                  'Greyhound', 'Husky', 'Jack Russell Terrier', 'Labrador Retriever', 'Mixed Breed', 'Pit Bull Terrier',
                  'Poodle', 'Pug', 'Shih Tzu', 'Staffordshire Bull Terrier', 'Whippet']),
    ('CAT', ARRAY['Abyssinian', 'Bengal', 'British Shorthair', 'Domestic Long Hair', 'Domestic Medium Hair',
                  'Domestic Short Hair', 'Maine Coon', 'Norwegian Forest Cat', 'Persian', 'Ragdoll', 'Russian Blue',
                  'Siamese', 'Sphynx']),
    ('RABBIT', ARRAY['Dutch', 'Flemish Giant', 'Holland Lop', 'Lionhead', 'Mini Rex', 'Netherland Dwarf', 'Rex']),
    ('SMALL_AND_FURRY', ARRAY['Chinchilla', 'Ferret', 'Gerbil', 'Guinea Pig', 'Hamster', 'Mouse', 'Rat']),
    ('HORSE', ARRAY['Appaloosa', 'Arabian', 'Miniature Horse', 'Pony', 'Quarter Horse', 'Thoroughbred']),
    ('BIRD', ARRAY['Budgie', 'Canary', 'Cockatiel', 'Conure', 'Dove', 'Finch', 'Lovebird', 'Parrot']),
    ('SCALES_FINS_AND_OTHER', ARRAY['Bearded Dragon', 'Corn Snake', 'Goldfish', 'Leopard Gecko', 'Tortoise', 'Turtle']),
    ('BARNYARD', ARRAY['Alpaca', 'Chicken', 'Donkey', 'Duck', 'Goat', 'Pig', 'Sheep'])
) AS t(type, names);

-- Adoption centres. A pet is where its shelter is, so distance is the
-- shelter's: the feed reads the shelters within reach from their GiST
-- index, nearest first, and each one's pets newest first from its index.
CREATE TABLE shelters (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120 AND name = btrim(name)),
    email text CHECK (length(email) <= 254 AND email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
    phone text CHECK (phone ~ '^\+?[0-9 ().-]{5,30}$'),
    street text NOT NULL DEFAULT '' CHECK (length(street) <= 200),
    city text NOT NULL CHECK (char_length(city) BETWEEN 1 AND 100),
    state text NOT NULL DEFAULT '' CHECK (length(state) <= 100),
    postcode text NOT NULL DEFAULT '' CHECK (length(postcode) <= 20),
    country text NOT NULL DEFAULT 'US' CHECK (country ~ '^[A-Z]{2}$'),
    latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (email IS NOT NULL OR phone IS NOT NULL)
);
CREATE INDEX shelters_position ON shelters USING gist (ll_to_earth(latitude, longitude));
CREATE INDEX shelters_name ON shelters (lower(name), id);

CREATE TABLE shelter_staff (
    shelter_id bigint NOT NULL REFERENCES shelters ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    added_by bigint REFERENCES users,
    added_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (shelter_id, user_id)
);
CREATE INDEX shelter_staff_user ON shelter_staff (user_id, shelter_id);

-- A shelter keeps at least one staff member (one going with its shelter aside).
CREATE FUNCTION shelter_staff_keep_one() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM shelters s WHERE s.id = OLD.shelter_id)
       AND NOT EXISTS (SELECT 1 FROM shelter_staff s WHERE s.shelter_id = OLD.shelter_id) THEN
        RAISE EXCEPTION 'a shelter keeps at least one staff member' USING ERRCODE = 'PM005';
    END IF;
    RETURN OLD;
END $$;
CREATE TRIGGER shelter_staff_keep_one AFTER DELETE ON shelter_staff FOR EACH ROW EXECUTE FUNCTION shelter_staff_keep_one();

CREATE TABLE pets (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    shelter_id bigint NOT NULL REFERENCES shelters,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60 AND name = btrim(name)),
    type text NOT NULL REFERENCES pet_types,
    primary_breed_id bigint NOT NULL,
    secondary_breed_id bigint,
    size text NOT NULL CHECK (size IN ('SMALL', 'MEDIUM', 'LARGE', 'EXTRA_LARGE')),
    age_group text NOT NULL CHECK (age_group IN ('BABY', 'YOUNG', 'ADULT', 'SENIOR')),
    gender text NOT NULL CHECK (gender IN ('FEMALE', 'MALE', 'UNKNOWN')),
    coat text,
    color text,
    description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 4000),
    status text NOT NULL DEFAULT 'ADOPTABLE' CHECK (status IN ('ADOPTABLE', 'PENDING', 'ADOPTED')),
    published_at timestamptz NOT NULL DEFAULT now(),
    status_changed_at timestamptz NOT NULL DEFAULT now(),
    -- The staff member who made the last change; the trigger checks they
    -- are the shelter's (null once their account is gone).
    updated_by bigint REFERENCES users ON DELETE SET NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    created_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (primary_breed_id, type) REFERENCES breeds (id, type),
    FOREIGN KEY (secondary_breed_id, type) REFERENCES breeds (id, type),
    FOREIGN KEY (type, coat) REFERENCES pet_type_coats (type, coat),
    FOREIGN KEY (type, color) REFERENCES pet_type_colors (type, color),
    CHECK (secondary_breed_id <> primary_breed_id)
);
-- The feed: each shelter's adoptable pets newest first (shelters nearest
-- first), or all of them newest first without a location; a shelter's
-- page of every status.
CREATE INDEX pets_adoptable_shelter ON pets (shelter_id, published_at DESC, id DESC) WHERE status = 'ADOPTABLE';
CREATE INDEX pets_adoptable_newest ON pets (published_at DESC, id DESC) WHERE status = 'ADOPTABLE';
CREATE INDEX pets_shelter ON pets (shelter_id, published_at DESC, id DESC);

-- Photos in their order (position 0 is the card's).
CREATE TABLE pet_photos (
    pet_id bigint NOT NULL REFERENCES pets ON DELETE CASCADE,
    position integer NOT NULL CHECK (position BETWEEN 0 AND 11),
    url text NOT NULL CHECK (length(url) <= 2048 AND url ~ '^https?://[^[:space:]]+$'),
    PRIMARY KEY (pet_id, position)
);

-- Staff write their shelter's pets, which stay with their shelter.
CREATE FUNCTION pets_check_staff() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.shelter_id <> OLD.shelter_id THEN
        RAISE EXCEPTION 'a pet stays with its shelter' USING ERRCODE = 'PM003';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM shelter_staff s WHERE s.shelter_id = NEW.shelter_id AND s.user_id = NEW.updated_by) THEN
        RAISE EXCEPTION 'only the shelter''s staff may change its pets' USING ERRCODE = 'PM002';
    END IF;
    IF TG_OP = 'UPDATE' THEN
        NEW.updated_at := now();
        IF NEW.status <> OLD.status THEN
            NEW.status_changed_at := now();
        END IF;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER pets_check_staff BEFORE INSERT OR UPDATE ON pets FOR EACH ROW EXECUTE FUNCTION pets_check_staff();

-- A user's feed preferences: one row, made with defaults at first use. An
-- empty list means any; the breeds are rows of their own (below).
CREATE TABLE pet_preferences (
    user_id bigint PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    type text REFERENCES pet_types,
    sizes text[] NOT NULL DEFAULT '{}' CHECK (sizes <@ ARRAY['SMALL', 'MEDIUM', 'LARGE', 'EXTRA_LARGE']),
    age_groups text[] NOT NULL DEFAULT '{}' CHECK (age_groups <@ ARRAY['BABY', 'YOUNG', 'ADULT', 'SENIOR']),
    genders text[] NOT NULL DEFAULT '{}' CHECK (genders <@ ARRAY['FEMALE', 'MALE', 'UNKNOWN']),
    latitude double precision CHECK (latitude BETWEEN -90 AND 90),
    longitude double precision CHECK (longitude BETWEEN -180 AND 180),
    distance_km double precision NOT NULL DEFAULT 50 CHECK (distance_km > 0 AND distance_km <= 500),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((latitude IS NULL) = (longitude IS NULL)),
    UNIQUE (user_id, type)
);

-- Preferred breeds, each of the preferred type: the user's type must be
-- set (and cleared of breeds before it changes).
CREATE TABLE pet_preference_breeds (
    user_id bigint NOT NULL,
    type text NOT NULL,
    breed_id bigint NOT NULL,
    PRIMARY KEY (user_id, breed_id),
    FOREIGN KEY (user_id, type) REFERENCES pet_preferences (user_id, type) ON DELETE CASCADE,
    FOREIGN KEY (breed_id, type) REFERENCES breeds (id, type)
);

-- What each user has seen: one swipe per (user, pet), the latest direction.
CREATE TABLE pet_swipes (
    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
    pet_id bigint NOT NULL REFERENCES pets ON DELETE CASCADE,
    direction text NOT NULL CHECK (direction IN ('LEFT', 'RIGHT', 'SUPER')),
    swiped_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, pet_id)
);

-- Only an adoptable pet takes a swipe; the pet is held FOR SHARE so that a
-- status change either comes first (and the swipe is refused) or waits.
CREATE FUNCTION pet_swipes_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    pet_status text;
BEGIN
    SELECT p.status INTO pet_status FROM pets p WHERE p.id = NEW.pet_id FOR SHARE;
    -- No such pet: the foreign key refuses the swipe.
    IF FOUND AND pet_status <> 'ADOPTABLE' THEN
        RAISE EXCEPTION 'this pet is not up for adoption' USING ERRCODE = 'PM001';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER pet_swipes_check BEFORE INSERT OR UPDATE ON pet_swipes FOR EACH ROW EXECUTE FUNCTION pet_swipes_check();

-- Favourites are right (and super) swipes the user has kept; removing one
-- keeps the swipe, so the pet does not come back to the feed. The swipe's
-- trigger below keeps them: a right or super swipe (again) makes the pet a
-- favourite, a left one takes it out.
CREATE TABLE pet_favorites (
    user_id bigint NOT NULL,
    pet_id bigint NOT NULL,
    is_super boolean NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, pet_id),
    FOREIGN KEY (user_id, pet_id) REFERENCES pet_swipes ON DELETE CASCADE
);
CREATE INDEX pet_favorites_order ON pet_favorites (user_id, is_super DESC, created_at DESC, pet_id DESC);
CREATE INDEX pet_favorites_pet ON pet_favorites (pet_id);

CREATE FUNCTION pet_favorites_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pet_swipes s WHERE s.user_id = NEW.user_id AND s.pet_id = NEW.pet_id
                   AND s.direction IN ('RIGHT', 'SUPER')) THEN
        RAISE EXCEPTION 'a favourite is a right swipe' USING ERRCODE = 'PM004';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER pet_favorites_check BEFORE INSERT OR UPDATE ON pet_favorites FOR EACH ROW EXECUTE FUNCTION pet_favorites_check();

CREATE FUNCTION pet_swipes_favorite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.direction = 'LEFT' THEN
        DELETE FROM pet_favorites WHERE user_id = NEW.user_id AND pet_id = NEW.pet_id;
    ELSE
        INSERT INTO pet_favorites (user_id, pet_id, is_super) VALUES (NEW.user_id, NEW.pet_id, NEW.direction = 'SUPER')
        ON CONFLICT (user_id, pet_id) DO UPDATE SET is_super = EXCLUDED.is_super;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER pet_swipes_favorite AFTER INSERT OR UPDATE ON pet_swipes FOR EACH ROW EXECUTE FUNCTION pet_swipes_favorite();
