/** The signed-in user as the server returns it from login and /auth/me/. */
export interface User {
  username: string;
  language: string;
  rainfall_units: string;
  has_advanced_mode: boolean;
  default_advanced_mode?: boolean;
  shared_projects: boolean;
  is_admin: boolean;
  is_translator?: boolean;
  is_marketing?: boolean;
  zero_at_discharge?: boolean;
  company?: string;
  telephone?: string;
  address?: string;
  city?: string;
  postcode?: string;
  country?: Country | null;
  can_change_country?: boolean;
}

export interface UserCountryAnswer {
  country: Country;
  user: User;
}

export interface UserEnvelope {
  user: User;
}

/** A personal API token as the settings list it: never the token itself. */
export interface ApiToken {
  id: string;
  name: string;
  created: string;
}

/** A token just created: the only answer that carries the token. */
export interface CreatedApiToken extends ApiToken {
  token: string;
}

export interface Country {
  name: string;
  iso_code: string;
  region?: string;
}

export interface ProjectListItem {
  id: string;
  support_id?: number;
  name: string;
  location: string;
  reference: string;
  /** The project's own date field, as the designer typed it. */
  date?: string;
  country?: string;
  created_by?: string;
  /** ISO 8601 date-time. */
  created_at: string;
  last_saved?: string;
  saved_by: string;
  is_empty: boolean;
  shared_with_provider?: boolean;
}

export interface Registration {
  username: string;
  password: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  telephone: string;
  address: string;
  city: string;
  postcode: string;
  /** iso_code of the chosen country. */
  country: string;
}

export interface PasswordResetConfirmation {
  uid: string;
  token: string;
  new_password1: string;
  new_password2: string;
}

export type UserSettingsPatch = Partial<
  Pick<
    User,
    | 'default_advanced_mode'
    | 'rainfall_units'
    | 'language'
    | 'company'
    | 'telephone'
    | 'address'
    | 'city'
    | 'postcode'
  >
>;

/** first_name, last_name, email and group come with the server's user too; kept as sent. */
export type UserWithExtras = User & { first_name?: string; last_name?: string; email?: string; group?: string };
