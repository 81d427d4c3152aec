export interface CurrentUser {
  username: string;
  roles: string[];
  is_admin: boolean;
}

export interface LoginCredentials {
  username: string;
  password: string;
}

export interface LoginResponse {
  username: string;
  roles: string[];
}
